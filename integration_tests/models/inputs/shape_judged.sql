-- the truth of shape_two_days, with an item id that ends in a space (predictions' ids have none)
{{ config(enabled=var('rank_metrics_shape_data', false)) }}
select user_id, item_id
from (values (1, 'b'), (1, 'c ')) as judged(user_id, item_id)
