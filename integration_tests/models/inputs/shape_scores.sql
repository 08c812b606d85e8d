-- a model's scores between 0 and 1 in a column named pred
{{ config(enabled=var('rank_metrics_shape_data', false)) }}
select user_id, item_id, cast(pred as double) as pred
from (values (1, 'a', 0.9), (1, 'b', 0.2), (1, 'c', 0.5)) as scores(user_id, item_id, pred)
