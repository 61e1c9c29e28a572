; Trucks on weighted roads: action costs from a static function, a constant, a type hierarchy.
(define (domain roads)
  (:requirements :strips :typing :action-costs)
  (:types city depot - place truck package)
  (:constants hub - depot)
  (:predicates (at ?t - truck ?p - place) (pkg-at ?k - package ?p - place) (in ?k - package ?t - truck)
               (road ?a ?b - place))
  (:functions (road-length ?a ?b - place) - number (total-cost) - number)
  (:action drive
    :parameters (?t - truck ?a ?b - place)
    :precondition (and (at ?t ?a) (road ?a ?b))
    :effect (and (not (at ?t ?a)) (at ?t ?b) (increase (total-cost) (road-length ?a ?b))))
  (:action load
    :parameters (?k - package ?t - truck ?p - place)
    :precondition (and (at ?t ?p) (pkg-at ?k ?p))
    :effect (and (not (pkg-at ?k ?p)) (in ?k ?t) (increase (total-cost) 1)))
  (:action unload
    :parameters (?k - package ?t - truck ?p - place)
    :precondition (and (at ?t ?p) (in ?k ?t))
    :effect (and (pkg-at ?k ?p) (not (in ?k ?t)) (increase (total-cost) 1))))
