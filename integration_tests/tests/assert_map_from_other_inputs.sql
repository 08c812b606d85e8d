-- ephemeral, CTE, subquery, list-shaped and materialized view inputs give the numbers the seeds themselves give
{% for model in ['spec_map_from_ephemeral', 'spec_map_from_cte', 'spec_map_from_subquery', 'spec_map_from_lists',
                'spec_map_from_materialized'] %}
select '{{ model }}' as model, e.case_id, e.k, e.map_at_k as expected, a.map_at_k as actual
from {{ ref('spec_map') }} as e
left join {{ ref(model) }} as a
    on a.case_id = e.case_id and a.k = e.k
where a.map_at_k is null or abs(a.map_at_k - e.map_at_k) > 0.000001
{{ 'union all' if not loop.last }}
{% endfor %}
