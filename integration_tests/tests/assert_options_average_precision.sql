-- fails on every (variant, user, k) whose AP@k differs from the hand-computed value, and on
-- every user a variant evaluates that it should not (or misses one that it should)
select coalesce(e.variant, a.variant) as variant, coalesce(e.user_id, a.user_id) as user_id,
    coalesce(e.k, a.k) as k, e.average_precision as expected, a.average_precision as actual
from {{ ref('options_expected') }} as e
full outer join {{ ref('options_average_precision') }} as a
    on a.variant = e.variant and a.user_id = e.user_id and a.k = e.k
where e.variant is null or a.variant is null
    or abs(a.average_precision - e.average_precision) > 0.000001
