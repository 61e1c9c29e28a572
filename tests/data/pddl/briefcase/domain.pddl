; Briefcase world (Pednault's ADL example): moving the briefcase moves everything inside it.
; Conditional effects under forall, written for plancheck's validator tests.
(define (domain briefcase)
  (:requirements :strips :typing :negative-preconditions :conditional-effects)
  (:types location portable)
  (:predicates (at-b ?l - location) (at ?p - portable ?l - location) (in ?p - portable))
  (:action move-briefcase
    :parameters (?from ?to - location)
    :precondition (and (at-b ?from) (not (at-b ?to)))
    :effect (and (at-b ?to) (not (at-b ?from))
                 (forall (?p - portable)
                   (when (in ?p) (and (at ?p ?to) (not (at ?p ?from)))))))
  (:action put-in
    :parameters (?p - portable ?l - location)
    :precondition (and (at ?p ?l) (at-b ?l) (not (in ?p)))
    :effect (in ?p))
  (:action take-out
    :parameters (?p - portable)
    :precondition (in ?p)
    :effect (not (in ?p))))
