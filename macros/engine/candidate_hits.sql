{#- How the matches (rm_matches: predictions that met truth, placed by their rank) and the
    numbered rows of lists whose ranks are not positions (rm_renumbered) become
    rm_candidate_hits (_ranked_hits): the relevant items within the largest k (`cut`, none when
    every position counts) with their positions, (by, rm_user, rm_item, rm_position, rm_grade).

    lists_in_order renders the part of rm_matches' FROM that keeps the matches of lists whose
    ranks are positions (`alias` is predictions). default__ joins rm_lists for it. -#}
{% macro default__lists_in_order(plan, alias) %}
    inner join rm_lists as l
        on {{ rank_metrics._equal_prefix(plan.by, alias, 'l') }}{{ alias }}.{{ plan.user }} = l.rm_user and l.rm_rank_is_position = 1
{%- endmacro %}

{#- Spark keeps every match: spark__candidate_hits puts the numbered lists in their place. -#}
{% macro spark__lists_in_order(plan, alias) %}{% endmacro %}

{#- default__ takes the matches and the renumbered rows that meet truth. The renumbered rows
    meet truth themselves rather than look up the matches' items: a join with every renumbered
    row on (user, item) cost 2-3x the whole query when many lists are renumbered, as with ranks
    from 0 (bench/README, "Lists to renumber meet truth"). -#}
{% macro default__candidate_hits(plan, truth_rows, cut) -%}
    select {{ rank_metrics._column_prefix(plan.by, 'm') }}m.rm_user, m.rm_item, cast(m.rm_order_value as bigint) as rm_position, m.rm_grade
    from rm_matches as m
    union all
    {{ rank_metrics._numbered_hits(plan, 'rm_renumbered', truth_rows, cut) }}
{%- endmacro %}

{#- Spark computes rm_lists again at each reference (and adaptive execution does not reuse the
    shuffle on cached inputs), so the matches do not join it: that was a second aggregate of
    every prediction beside the one spark__renumbered_rows counts for its gate. Every match is
    placed by its rank, and a list that spark__renumbered_rows numbers takes its numbered rows
    instead: its hits and its first row, hit or not (left-joined to truth), so that every such
    list has rows (_numbered_hits with marks), and a window per list keeps one source. Those
    lists include every list whose matches are misplaced by their ranks: a list whose first
    cut + 1 rows all have ranks equal to their numbers has its matches within the cut at those
    numbers. With no list to number that branch is empty and dropped, and the query is the
    matches, the gate's one aggregate per list and truth's counts: 10M rows, cached, 1.83x the
    bound before, 1.38x after (bench/README, issue 11, "Spark: the matches placed by their
    ranks"). -#}
{% macro spark__candidate_hits(plan, truth_rows, cut) -%}
    {%- set by = rank_metrics._column_prefix(plan.by) -%}
    select {{ by }}rm_user, rm_item, rm_position, rm_grade
    from (
        select c.*, max(rm_numbered) over (partition by {{ by }}rm_user) as rm_list_numbered
        from (
            {#- REPARTITION: the matches (the floor's join, the heaviest stage) get a shuffle of their
                own, so they run beside the gate's count: Spark shuffles a union in one stage, which
                waits for the gate's broadcast. A rank outside 0..1e18 is no position (no list is
                that long), so its list is numbered; but the cast runs first, and under ANSI mode a
                cast past bigint's range fails #}
            select /*+ REPARTITION(rm_user) */ {{ rank_metrics._column_prefix(plan.by, 'm') }}m.rm_user, m.rm_item,
                cast(case when m.rm_order_value between 0 and 1e18 then m.rm_order_value else 0 end as bigint) as rm_position,
                m.rm_grade, 1 as rm_met, 0 as rm_numbered
            from rm_matches as m
            union all
            {{ rank_metrics._numbered_hits(plan, 'rm_renumbered', truth_rows, cut, marks=true) }}
        ) as c
    ) as c
    where rm_numbered = rm_list_numbered and rm_met = 1
{%- endmacro %}
