-- two days of lists, which a model reading them without by='day' reads as one list per user:
-- built only when asked, by tests/test_dbt_inputs.py, to show dbt warns of the merge
{{ config(enabled=var('rank_metrics_shape_data', false)) }}
select user_id, item_id, rank, day
from (values (1, 'a', 1, '2024-03-01'), (1, 'b', 2, '2024-03-01'), (1, 'c', 3, '2024-03-01'),
             (1, 'x', 1, '2024-03-02'), (1, 'b', 2, '2024-03-02'), (1, 'y', 3, '2024-03-02'),
             (1, 'a', 1, '2024-03-03'), (1, 'a', 1, '2024-03-03')) as days(user_id, item_id, rank, day)
