-- fails on every expected MAP@k that is missing or off by more than the SPEC's rounding
select e.case_id, e.k, e.map_at_k as expected, a.map_at_k as actual
from {{ ref('spec_expected_map') }} as e
left join {{ ref('spec_map') }} as a
    on a.case_id = e.case_id and a.k = e.k
where a.map_at_k is null or abs(a.map_at_k - e.map_at_k) > 0.000001
