-- fails on every expected AP@k that is missing or off by more than the SPEC's rounding
select e.case_id, e.user_id, e.k, e.average_precision as expected, a.average_precision as actual
from {{ ref('spec_expected_average_precision') }} as e
left join {{ ref('spec_average_precision') }} as a
    on a.case_id = e.case_id and a.user_id = e.user_id and a.k = e.k
where a.average_precision is null or abs(a.average_precision - e.average_precision) > 0.000001
