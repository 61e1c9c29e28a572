; A grid with keys and locked doors: negative preconditions, equality, a constant and typing.
(define (domain keydoor)
  (:requirements :strips :typing :negative-preconditions :disjunctive-preconditions :equality)
  (:types cell key)
  (:constants master - key)
  (:predicates (at ?c - cell) (adj ?c ?d - cell) (locked ?c - cell) (key-at ?k - key ?c - cell)
               (holding ?k - key) (opens ?k - key ?c - cell) (hands-full))
  (:action move
    :parameters (?from ?to - cell)
    :precondition (and (at ?from) (adj ?from ?to) (not (locked ?to)) (not (= ?from ?to)))
    :effect (and (not (at ?from)) (at ?to)))
  (:action pickup
    :parameters (?c - cell ?k - key)
    :precondition (and (at ?c) (key-at ?k ?c) (not (hands-full)))
    :effect (and (holding ?k) (hands-full) (not (key-at ?k ?c))))
  (:action drop
    :parameters (?c - cell ?k - key)
    :precondition (and (at ?c) (holding ?k))
    :effect (and (not (holding ?k)) (not (hands-full)) (key-at ?k ?c)))
  (:action unlock
    :parameters (?c ?d - cell ?k - key)
    :precondition (and (at ?c) (adj ?c ?d) (locked ?d) (holding ?k)
                       (or (opens ?k ?d) (= ?k master)))
    :effect (not (locked ?d))))
