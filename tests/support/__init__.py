"""What the tests share: games written from the rules, action builders, fixtures, drivers of a
screen. One module per subject (``games``: legal records of the spec; ``animalia``,
``boursicocotte``, ``monte_descend``, ``stupide_vautour``: a game's builders; ``store``, ``club``,
``server``…). A test module imports from here, never from another test module
(tests/test_support_imports.py checks it, for benchmarks/ too)."""
