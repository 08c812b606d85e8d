{#- A column's values per group as a list in the order of another column: each engine's own
    aggregate (for the list-shaped test model). -#}
{% macro ordered_list(value, order) %}{{ return(adapter.dispatch('ordered_list')(value, order)) }}{% endmacro %}

{% macro default__ordered_list(value, order) %}list({{ value }} order by {{ order }}){% endmacro %}

{% macro postgres__ordered_list(value, order) %}array_agg({{ value }} order by {{ order }}){% endmacro %}

{#- collect_list keeps no order: sort (order, value) pairs, then keep the values -#}
{% macro spark__ordered_list(value, order) %}transform(sort_array(collect_list(struct({{ order }}, {{ value }}))), pair -> pair.{{ value }}){% endmacro %}

{% macro snowflake__ordered_list(value, order) %}array_agg({{ value }}) within group (order by {{ order }}){% endmacro %}
