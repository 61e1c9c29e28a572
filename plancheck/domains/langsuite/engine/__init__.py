"""The 2-D textual world engine of LangSuitE's paper-era code (its ``dev`` branch), shared by its tasks.

Modules: ``geometry`` (rectangles, segments, the view sector, distances as shapely computes them),
``scene`` (objects, containment trees, display names), ``agent`` (pose, turns, steps), ``observe``
(what the agent sees and the observation texts), ``templates`` (the shipped feedback texts),
``actions`` (the actions and their feedback), ``goto`` (the grid planner behind ``goto``),
``reply`` (the Thought:/Act: protocol).
"""
