{#- The body of rm_renumbered (_ranked_hits): each list whose ranks are not its positions,
    numbered 1, 2, 3, … in the order of SPEC §1 — (by, rm_user, rm_item, rm_position) — to meet
    truth in rm_candidate_hits. `cut` is the largest k, or none when every
    position counts (truth_scope='listed').

    default__ joins predictions with the lists rm_lists found wanting and numbers only those. -#}
{% macro default__renumbered_rows(plan, cut) -%}
    -- rows that agree on both rank and item are the same entry twice, so which of them comes
    -- first changes nothing: (rank, item) is a unique tie-break in effect
    select {{ rank_metrics._column_prefix(plan.by, 'p') }}p.{{ plan.user }} as rm_user, p.{{ plan.item }} as rm_item,
        {{ rank_metrics._list_row_number(plan) }} as rm_position
    from {% call rank_metrics._rows_to_number(plan) -%}
    {{ plan.predictions }} as p
    inner join rm_lists as l
        on {{ rank_metrics._equal_prefix(plan.by, 'p', 'l') }}p.{{ plan.user }} = l.rm_user
    where l.rm_rank_is_position = 0
    {%- endcall %}
{%- endmacro %}

{#- Spark computes rm_lists again at each reference, and adaptive execution (its default)
    reuses an identical reference's shuffle only sometimes (not on cached inputs): a join with
    rm_lists here is a stage of its own, which runs — an aggregate of every prediction — before
    any gate could stop it, and the gated predictions are read all the same. So nothing here
    reads rm_lists but a count of the lists to number, cross-joined as one row: when it is 0,
    adaptive execution sees an empty side before anything else of this branch runs and drops it
    whole. When it is not, every list is numbered, and a list is kept when one of its first
    cut + 1 rows has a rank other than its number: every list whose matches their ranks would
    misplace (spark__candidate_hits takes these lists' rows in place of their matches). When the
    check is one word (_head_fits_one_word) those are every list rm_lists finds wanting, and a
    few more (a gap after the cut); otherwise rm_lists also fails heads too long for its words,
    so every list is kept (bench/README, issue 11, "Fourth round": 10M rows, no list to number
    7.2 s → 5.7 s cached, 5.5 s → 4.5 s from Parquet; every list 13.3 s → 13.4 s; one list
    8.7 s → 12.1 s, as every list is then sorted). The count reads every list, its condition
    inside count() rather than in a WHERE: then Spark merges it with the count of the listed
    users of _pattern_sums (users='predictions' and 'both'), one aggregate of every prediction
    for both (a WHERE made two; bench/README, issue 41, "Spark under every convention"). -#}
{% macro spark__renumbered_rows(plan, cut) -%}
    {%- set by = rank_metrics._column_prefix(plan.by) -%}
    select {{ by }}rm_user, rm_item, rm_position
    from (
        select n.*,
            {%- if rank_metrics._head_fits_one_word(cut) %}
            max(case when rm_position <= {{ cut + 1 }} and coalesce(rm_order_value <> rm_position, true) then 1 else 0 end)
                over (partition by {{ by }}rm_user) as rm_renumber
            {%- else %}
            1 as rm_renumber
            {%- endif %}
        from (
            select {{ rank_metrics._column_prefix(plan.by, 'p') }}p.{{ plan.user }} as rm_user, p.{{ plan.item }} as rm_item,
                {{ rank_metrics._rank_for_cuts(plan, 'p.') }} as rm_order_value,
                {{ rank_metrics._list_row_number(plan) }} as rm_position
            from {% call rank_metrics._rows_to_number(plan) -%}
            {{ plan.predictions }} as p
            cross join (
                -- only the lists that can meet truth (a NULL key meets nothing)
                select count(case when rm_rank_is_position = 0
                    {%- for key in plan.by + ['rm_user'] %} and {{ key }} is not null{% endfor %} then 1 end) as rm_lists_to_number
                from rm_lists
            ) as g
            where g.rm_lists_to_number > 0
            {%- endcall %}
        ) as n
    ) as n
    where rm_renumber = 1{{ ' and rm_position <= ' ~ cut if cut is not none }}
{%- endmacro %}

{#- A prediction row's number within its list, `p` being predictions, in the order of SPEC §1
    (why (rank, item) is a unique tie-break in effect: default__'s comment). -#}
{% macro _list_row_number(plan) -%}
    row_number() over (
            partition by {{ rank_metrics._column_prefix(plan.by, 'p') }}p.{{ plan.user }}
            order by p.{{ plan.order_by }} asc, {{ rank_metrics._item_sort_key(plan, 'p.' ~ plan.item) }} {{ plan.item_direction }}
        )
{%- endmacro %}

{#- What the numbering reads (`caller()`: predictions as p, with its joins and filter): those
    rows, or under duplicates='collapse' a row per item at its best rank, with predictions' column
    names, collapsed after the filter so that a gate that drops the rows drops this work too. -#}
{% macro _rows_to_number(plan) -%}
    {%- if plan.duplicates == 'collapse' -%}
    {%- set keys = rank_metrics._column_prefix(plan.by, 'p') ~ 'p.' ~ plan.user ~ ', p.' ~ plan.item -%}
    (
        select {{ keys }}, min(p.{{ plan.order_by }}) as {{ plan.order_by }}
        from {{ caller() }}
        group by {{ keys }}
    ) as p
    {%- else -%}
    {{ caller() }}
    {%- endif -%}
{%- endmacro %}
