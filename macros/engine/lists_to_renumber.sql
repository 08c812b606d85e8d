{#- A condition that is false when no list needs renumbering, for the engines where the
    renumbering join costs a full pass even then; default__ renders nothing.
    Spark does not keep rm_lists between its references: the join of predictions with the
    lists to renumber shuffles every prediction by user, however few lists (often none) it
    keeps. A scalar count of those lists runs first, and once it is 0 the filter drops every
    prediction before the shuffle (bench/README, issue 11: 9.3 s → 6.9 s at 10M). The count is
    one number, whatever the data: unlike a broadcast of the lists' keys, it cannot outgrow the
    driver. -#}
{% macro default__lists_to_renumber(lists) -%}
{%- endmacro %}

{% macro spark__lists_to_renumber(lists) -%}
    (select count(*) from {{ lists }} where rm_rank_is_position = 0) > 0
{%- endmacro %}
