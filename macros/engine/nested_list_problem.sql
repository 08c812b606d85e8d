{#- A problem row (see input_problems) for the first user of a list-shaped table whose list is
    not one-dimensional, or nothing. PostgreSQL's array types do not say how many dimensions a
    value has (an int[] column holds {{101, 9}, {102, 8}} too), and unnest flattens them, so
    (item, score) pairs would become items one by one: a silent wrong number. The other engines'
    types tell a list of lists (INTEGER[][], array<array<int>>) from a list of items. -#}
{% macro default__nested_list_problem(plan, table, relation, item, number) -%}
{%- endmacro %}

{% macro postgres__nested_list_problem(plan, table, relation, item, number) -%}
{%- set user = plan.user if table == 'predictions' else plan.truth_user %}
union all
select {{ number }} as rm_check, {{ rank_metrics.string_literal(rank_metrics._truth_argument('item', plan.truth_item, plan.item) if table == 'truth' else 'item') }} as argument, problem from (
    select ({{ rank_metrics.string_literal('column ' ~ (plan.names.item if table == 'predictions' else plan.names.truth_item) ~ ' of ' ~ table
                ~ ' holds each user' ~ "'" ~ 's items as an array, but user ') }} || cast({{ user }} as text)
        || {{ rank_metrics.string_literal(' has an array of ') }} || cast(array_ndims({{ item }}) as text)
        || {{ rank_metrics.string_literal(' dimensions (') }} || left(cast({{ item }} as text), 40)
        || {{ rank_metrics.string_literal('), which would be read as its elements one by one: a list must be one-dimensional (for items with a rank, score or grade, give a row per item)') }}) as problem
    from {{ relation }} as rm_l
    where array_ndims({{ item }}) > 1
    order by {{ user }}
    limit 1
) as rm_first_nested_{{ table }}
{%- endmacro %}
