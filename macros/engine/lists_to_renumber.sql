{#- A condition that is false when no list needs renumbering, for the engines where the
    renumbering join costs a full pass even then; default__ renders nothing.
    Spark does not keep rm_lists between its references: the join of predictions with the
    lists to renumber shuffles every prediction by user, however few lists (often none) it
    keeps. A scalar count of those lists runs first, and once it is 0 the filter drops every
    prediction before the shuffle. The count is one number, whatever the data: unlike a
    broadcast of the lists' keys, it cannot outgrow the driver. It counts only the lists the
    join can keep (a NULL key meets nothing), the filter Spark adds to the join's side too, so
    that the count reads the same shuffled lists instead of aggregating predictions again
    (bench/README, issue 11, third round: 7.4 s → 6.1 s → 5.7 s at 10M). -#}
{% macro default__lists_to_renumber(lists, keys) -%}
{%- endmacro %}

{% macro spark__lists_to_renumber(lists, keys) -%}
    (select count(*) from {{ lists }} where rm_rank_is_position = 0
        {%- for key in keys %} and {{ key }} is not null{% endfor %}) > 0
{%- endmacro %}
