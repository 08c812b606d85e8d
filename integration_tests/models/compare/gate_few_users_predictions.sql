-- gate_regressed_predictions' models: c worse than b on 5 paired users, which the gate's
-- default min_users (30) warns of rather than fails (tests/test_comparisons_honest.py, with the
-- var rank_metrics_few_users_gate)
select * from {{ ref('gate_regressed_predictions') }}
