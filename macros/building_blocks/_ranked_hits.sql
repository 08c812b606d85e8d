{#- The building block every ranking metric shares: CTEs that number each user's list and find
    its hits. It renders (after `with`):
      rm_truth_users   one row per (truth_by, user) in truth, with rm_n_relevant = m(u)
      rm_prediction_users  one row per (by, user) with at least one prediction (and, when
                       precision needs it, rm_list_length = n(u)); under users='truth',
                       'judged' and 'both', only the users truth knows where lists_truth_knows
                       says so
      rm_hits          one row per hit within the largest k: rm_position, rm_grade (the item's
                       largest grade), rm_relevant (1 or 0) and, for MAP unless the plan has
                       hits_as_bits, rm_hits_so_far (the running count of relevant hits up to
                       and including it); under tie_break='average' a row per hit and position
                       of its tie group, with rm_weight
      rm_judged_rows   under plan.judged_rows (bpref, on graded truth): the rows of rm_hit_rows
                       and those of the judged non-relevant items
      rm_<sum>         each cutoff-free metric's sums per (by, user) (_cutoff_free_sum), and the
                       sums at k of their own (_sum_of_its_own)
      rm_listed_items  under truth_scope='listed': one row per (by, user, truth item in the list),
                       and under hit patterns the word of its positions within the largest k
    A hit is a listed item that truth grades relevant or that adds gain (SPEC §6); which of its
    appearances count is `duplicates`' choice. Positions are 1, 2, 3, … per (by, user) in the
    order of SPEC §1; predictions meet truth as soon as positions are known, so the repeat
    check and the running count only ever see hit rows. -#}
{% macro _ranked_hits(plan) %}
{%- set by = rank_metrics._column_prefix(plan.by) -%}
{%- set truth_by = rank_metrics._column_prefix(plan.truth_by) -%}
{%- set truth_rows = rank_metrics._truth_rows(plan) -%}
{%- set truth_rows_by_user = rank_metrics._truth_rows(plan, hint=rank_metrics.truth_by_user_hint()) -%}
{#- bpref's judged non-relevant items are met too (plan.judged_rows): rm_judged_rows has them,
    rm_hit_rows the rest -#}
{%- set met_rows = rank_metrics._truth_rows(plan, judged=plan.judged_rows) -%}
{%- set listed = plan.truth_scope == 'listed' -%}
{#- the cut at the largest k, made last (in rm_hits) when the plan is uncut: under
    truth_scope='listed' every listed truth item is needed, and R-precision's hits are within
    the first R positions, however many -#}
{%- set uncut = plan.uncut -%}
{%- set largest_k = plan.ks | max -%}
rm_truth_users as (
    -- every user truth has (any grade, for users='judged'/'both'/'union'), with m(u) = |R(u)|
    {%- set n_relevant = 'count(distinct rm_item)' if plan.relevance_threshold is none
                         else 'count(distinct case when ' ~ rank_metrics._is_relevant(plan, 'rm_grade') ~ ' then rm_item end)' %}
    {%- if plan.users in ('judged', 'both', 'union') and (plan.relevance is not none or plan.relevance_threshold is not none) %}
    select {{ rank_metrics._column_prefix(plan.truth_by, 't') }}t.rm_user, coalesce(r.rm_n_relevant, 0) as rm_n_relevant
    from (select distinct {{ truth_by }}{{ plan.truth_user }} as rm_user from {{ plan.truth }} as rm_t) as t
    left join (
        select {{ truth_by }}rm_user, {{ n_relevant }} as rm_n_relevant
        from {{ truth_rows_by_user }} as r
        group by {{ truth_by }}rm_user
    ) as r
        on {{ rank_metrics._equal_prefix(plan.truth_by, 't', 'r') }}t.rm_user = r.rm_user
    {%- else %}
    -- (without grades, or when only users with m >= 1 count, those are the users truth grades)
    select {{ truth_by }}rm_user, {{ n_relevant }} as rm_n_relevant
    from {{ truth_rows_by_user }} as r
    group by {{ truth_by }}rm_user
    {%- endif %}
),
{#- under tie_break='average' every list is numbered (rm_positions), its tie groups with it -#}
{%- set ties_averaged = plan.tie_break == 'average' -%}
{%- if plan.order_direction == 'asc' and not ties_averaged %}
rm_lists as (
    -- one row per list. Most rank columns already hold the whole numbers 1..n, and then a row's
    -- position is its rank, with no sort (ranks_are_positions says which lists, looking only at
    -- the rows ranked within the largest k; the others are numbered by row_number)
    {#- a decimal rank with digits after the point is checked and cut as a double, which the
        engines compare with k alike (_is_fractional_decimal_column), and exactly so: rounding
        keeps the order (a < b as doubles means a < b), so when a list's head rounds to the
        distinct whole numbers 1..c those are its positions, as exactly ordered; a head that
        rounds otherwise (two ranks to one double, a fraction) fails the check and is numbered
        from the exact ranks -#}
    {%- set rank = rank_metrics._rank_for_cuts(plan) %}
    {#- a fractional rank must fail the check (integer columns need not be asked) -#}
    {#- round, not floor: Spark's floor of a double is a bigint, which overflows under ANSI mode past 9.2e18 -#}
    {%- set whole_rank = rank if plan.rank_is_whole else 'case when ' ~ rank ~ ' = round(' ~ rank ~ ') then ' ~ rank ~ ' else 0 end' %}
    {%- set collapse = plan.duplicates == 'collapse' %}
    {#- under duplicates='collapse' an item's repeats are dropped: n(u) counts items, and the ranks
        are positions only where the ranked rows' items are distinct (a repeat there drops a row
        and moves those after it) -#}
    {%- set list_length = 'count(distinct ' ~ plan.item ~ ') + max(case when ' ~ plan.item ~ ' is null then 1 else 0 end)' if collapse else 'count(*)' %}
    {%- set distinct = {'columns': [], 'condition': none} %}
    {%- set item_type = plan.shapes.predictions.element_type %}
    {%- set comparable = item_type is not none and rank_metrics._type_family(item_type) in ('number', 'string') %}
    {%- if collapse %}{% do rank_metrics._head_items_distinct(distinct, rank, whole_rank, plan.item, none if uncut else largest_k, comparable) %}{% endif %}
    {%- if collapse %}
    select {{ by }}rm_user,{{ ' rm_list_length,' if plan.needs_list_length }}
        case when {{ distinct.condition }} then rm_rank_is_position else 0 end as rm_rank_is_position
    from (
    {%- endif %}
    select {{ by }}{{ plan.user }} as rm_user,{{ ' ' ~ list_length ~ ' as rm_list_length,' if plan.needs_list_length }}
        {{ rank_metrics._ranks_are_positions(rank, whole_rank, none if uncut else largest_k) }} as rm_rank_is_position
        {%- for column in distinct.columns %},
        {{ column }}
        {%- endfor %}
    from {{ plan.predictions }} as rm_p
    {{ rank_metrics.lists_truth_knows(plan, 'rm_p') }}
    group by {{ by }}{{ plan.user }}
    {%- if collapse %}
    ) as l
    {%- endif %}
),
rm_prediction_users as (
    select {{ by }}rm_user{{ ', rm_list_length' if plan.needs_list_length }}
    from rm_lists
),
rm_matches as (
    -- every prediction row of a relevant item within the largest k by its rank, in a list whose
    -- ranks are its positions (lists_in_order). Predictions meet the relevant set first, so
    -- what follows only sees these few rows.
    select {{ rank_metrics._column_prefix(plan.by, 'p') }}p.{{ plan.user }} as rm_user, p.{{ plan.item }} as rm_item,
        {{ rank_metrics._rank_for_cuts(plan, 'p.') }} as rm_order_value, r.rm_grade
    from {{ plan.predictions }} as p
    inner join {{ met_rows }} as r
        on {{ rank_metrics._equal_prefix(plan.truth_by, 'p', 'r') }}p.{{ plan.user }} = r.rm_user and p.{{ plan.item }} = r.rm_item
    {{- rank_metrics.lists_in_order(plan, 'p') }}
    {%- if not uncut %}
    where {{ rank_metrics._rank_for_cuts(plan, 'p.') }} {{ '<= ' ~ largest_k if plan.rank_is_whole else '< ' ~ largest_k ~ ' + 0.5' }}
    {%- endif %}
),
rm_renumbered as (
    {{ rank_metrics.renumbered_rows(plan, none if uncut else largest_k) }}
),
rm_candidate_hits as (
    {{ rank_metrics.candidate_hits(plan, met_rows, none if uncut else largest_k) }}
),
{%- else %}
{#- under users='both' only the lists truth knows, whose users _pattern_sums counts (under
    'truth' and 'judged' the filter made DuckDB slower here: 10M rows by score, 0.71 s -> 0.90 s) -#}
{%- set known_lists = rank_metrics.lists_truth_knows(plan, 'rm_p') if plan.users == 'both' else '' %}
rm_source as (
    {%- if plan.duplicates == 'collapse' %}
    -- repeats are dropped before positions are numbered: each item keeps its best place
    select {{ by }}{{ plan.user }} as rm_user, {{ plan.item }} as rm_item,
        {{ 'min' if plan.order_direction == 'asc' else 'max' }}({{ plan.order_by }}) as rm_order_value
    from {{ plan.predictions }} as rm_p
    {%- if known_lists %}
    {{ known_lists }}
    {%- endif %}
    group by {{ by }}{{ plan.user }}, {{ plan.item }}
    {%- else %}
    select {{ by }}{{ plan.user }} as rm_user, {{ plan.item }} as rm_item, {{ plan.order_by }} as rm_order_value
    from {{ plan.predictions }} as rm_p
    {%- if known_lists %}
    {{ known_lists }}
    {%- endif %}
    {%- endif %}
),
rm_positions as (
    -- rows that agree on both order value and item are the same entry twice, so which of them
    -- comes first changes nothing: (order value, item) is a unique tie-break in effect
    select {{ by }}rm_user, rm_item,
        row_number() over (
            partition by {{ by }}rm_user
            order by rm_order_value {{ plan.order_direction }}, {{ rank_metrics._item_sort_key(plan, 'rm_item') }} {{ plan.item_direction }}
        ) as rm_position
        {%- if ties_averaged %},
        -- the item's tie group: the list's entries of its order value, at positions
        -- rm_tie_first .. rm_tie_first + rm_tie_size - 1, whatever order the item breaks them in
        rm_order_value,
        rank() over (partition by {{ by }}rm_user order by rm_order_value {{ plan.order_direction }}) as rm_tie_first,
        count(*) over (partition by {{ by }}rm_user, rm_order_value) as rm_tie_size
        {%- endif %}
    from rm_source
),
rm_prediction_users as (
    {%- if plan.needs_list_length %}
    select {{ by }}rm_user, max(rm_position) as rm_list_length
    from rm_positions
    group by {{ by }}rm_user
    {%- else %}
    select {{ by }}rm_user
    from rm_positions
    where rm_position = 1
    {%- endif %}
),
rm_candidate_hits as (
    -- relevant items within the largest k (under tie_break='average', in a tie group that
    -- begins within it): the join comes before anything else per row, so what follows only
    -- sees these few rows
    {{ rank_metrics._numbered_hits(plan, 'rm_positions', met_rows, none if uncut else largest_k) }}
),
{%- endif %}
{{ 'rm_judged_rows' if plan.judged_rows else 'rm_hit_rows' }} as (
    -- a truth row judged twice does not make two hits: the item keeps its largest grade
    {%- if plan.duplicates in ('first', 'error', 'collapse') %}
    {#- under 'collapse' too: an item kept its best place, its first (rm_lists' check) #}
    -- under duplicates='first' only an item's first appearance is a hit
    select {{ by }}rm_user, rm_item, min(rm_position) as rm_position, max(rm_grade) as rm_grade
        {%- if ties_averaged %},
        {#- the item is once in its list (tie_break='average' takes duplicates 'collapse' or 'error') #}
        min(rm_order_value) as rm_order_value, min(rm_tie_size) as rm_tie_size
        {%- endif %}
    from rm_candidate_hits
    group by {{ by }}rm_user, rm_item
    {%- else %}
    -- every copy is a hit, once
    select {{ by }}rm_user, rm_item, rm_position, max(rm_grade) as rm_grade
    from rm_candidate_hits
    group by {{ by }}rm_user, rm_item, rm_position
    {%- endif %}
),
{%- if plan.judged_rows %}
rm_hit_rows as (
    -- the hits: the judged rows that are relevant or add gain
    select *
    from rm_judged_rows
    where {{ rank_metrics._is_joined(plan, 'rm_grade') }}
),
{%- endif %}
{%- if listed %}
rm_listed_items as (
    -- the truth items anywhere in each list, with their grades (truth_scope='listed')
    select {{ by }}rm_user, rm_item, max(rm_grade) as rm_grade
        {%- if plan.hit_patterns %},
        {#- its positions within the cut, for the hit word (_evaluated_users) #}
        {{ rank_metrics.bit_or('case when rm_position <= ' ~ largest_k ~ ' then ' ~ rank_metrics.shift_left('cast(1 as bigint)', 'cast(rm_position as integer)') ~ ' else 0 end') }} as rm_hit_bits
        {%- endif %}
    from rm_hit_rows
    group by {{ by }}rm_user, rm_item
),
{%- endif %}
{%- for sum in plan.cutoff_free_sums %}
{{ rank_metrics._cutoff_free_sum(plan, sum) }},
{%- endfor %}
{%- for sum in plan.sums_of_their_own %}
{{ rank_metrics._sum_of_its_own(plan, sum) }},
{%- endfor %}
{%- if ties_averaged %}
rm_hits as (
    -- tie_break='average': each hit at every position of its tie group within the largest k,
    -- with weight 1 / the group's size (its chance of being there over the group's orders)
    select {{ rank_metrics._column_prefix(plan.by, 'h') }}h.rm_user, p.rm_position, h.rm_grade,
        case when {{ rank_metrics._is_relevant(plan, 'h.rm_grade') }} then 1 else 0 end as rm_relevant,
        1 / cast(h.rm_tie_size as {{ rank_metrics.type_double() }}) as rm_weight
    from rm_hit_rows as h
    inner join rm_positions as p
        on {{ rank_metrics._equal_prefix(plan.by, 'h', 'p') }}h.rm_user = p.rm_user and h.rm_order_value = p.rm_order_value
    where p.rm_position <= {{ largest_k }}
)
{%- else %}
rm_hits as (
    {#- AP's running count of relevant hits: a window, unless _user_sums reads it off a bitmask -#}
    {%- set running_count = 'precision_sum' in plan.sums and not plan.hits_as_bits %}
    {#- ERR's term per hit (macros/metrics/err.sql), unless _pattern_sums reads ERR off the word -#}
    {%- set err = rank_metrics._err_terms_per_hit(plan) | trim == 'true' %}
    {#- graded RBP's g_max per hit (macros/metrics/rbp.sql), unless _pattern_sums reads RBP off the word -#}
    {%- set rbp_graded = rank_metrics._rbp_weights_per_hit(plan) | trim == 'true' %}
    {%- if plan.relevance_threshold is none %}
    -- every row met truth with a grade > 0, so every hit is relevant
    select {{ by }}rm_user, rm_position, rm_grade, 1 as rm_relevant
        {%- if running_count %},
        row_number() over (partition by {{ by }}rm_user order by rm_position) as rm_hits_so_far
        {%- endif %}
        {%- if err %},
        {{ rank_metrics._err_term(plan) }} as rm_err_term
        {%- endif %}
        {%- if rbp_graded %},
        rm_g.rm_max_grade
        {%- endif %}
    from rm_hit_rows
    {%- if err or rbp_graded %}
    {{ rank_metrics._err_max_grade(plan, truth_rows, 'rm_hit_rows') }}
    {%- endif %}
    {%- else %}
    select {{ by }}rm_user, rm_position, rm_grade, rm_relevant
        {%- if running_count %},
        sum(rm_relevant) over (partition by {{ by }}rm_user order by rm_position
                               rows between unbounded preceding and current row) as rm_hits_so_far
        {%- endif %}
        {%- if err %},
        {{ rank_metrics._err_term(plan) }} as rm_err_term
        {%- endif %}
        {%- if rbp_graded %},
        rm_g.rm_max_grade
        {%- endif %}
    from (
        select {{ by }}rm_user, rm_position, rm_grade,
            case when {{ rank_metrics._is_relevant(plan, 'rm_grade') }} then 1 else 0 end as rm_relevant
        from rm_hit_rows
    ) as h
    {%- if err or rbp_graded %}
    {{ rank_metrics._err_max_grade(plan, truth_rows, 'h') }}
    {%- endif %}
    {%- endif %}
    {%- if uncut %}
    where rm_position <= {{ largest_k }}
    {%- endif %}
)
{%- endif %}
{%- endmacro %}


{#- Numbered rows (by, rm_user, rm_item, rm_position) that meet truth, within the cut when there
    is one: the hits with their grades. With `marks`, also each list's first row, hit or not,
    so that every numbered list has a row, and two flags: rm_met (a hit) and rm_numbered (1). -#}
{% macro _numbered_hits(plan, numbered, truth_rows, cut, marks=false) -%}
    {%- set ties_averaged = plan.tie_break == 'average' -%}
    select {{ rank_metrics._column_prefix(plan.by, 'n') }}n.rm_user, n.rm_item, n.rm_position, r.rm_grade
        {%- if marks %}, case when r.rm_item is null then 0 else 1 end as rm_met, 1 as rm_numbered{% endif %}
        {%- if ties_averaged %}, n.rm_order_value, n.rm_tie_size{% endif %}
    from {{ numbered }} as n
    {{ 'left' if marks else 'inner' }} join {{ truth_rows }} as r
        on {{ rank_metrics._equal_prefix(plan.truth_by, 'n', 'r') }}n.rm_user = r.rm_user and n.rm_item = r.rm_item
    {%- set conditions = (['(r.rm_item is not null or n.rm_position = 1)'] if marks else [])
                         + (['n.' ~ ('rm_tie_first' if ties_averaged else 'rm_position') ~ ' <= ' ~ cut] if cut is not none else []) %}
    {%- if conditions %}
    where {{ conditions | join(' and ') }}
    {%- endif %}
{%- endmacro %}


{#- The item as the tie-break sorts it: an enum by its text, as SPEC §1's "item ascending" reads. -#}
{% macro _item_sort_key(plan, item) -%}
    {%- set key = 'cast(' ~ item ~ ' as ' ~ rank_metrics.type_string() ~ ')' if plan.item_sorted_as_text else item -%}
    {{- rank_metrics.text_in_byte_order(key) if plan.item_sorted_as_text or plan.item_is_text else key -}}
{%- endmacro %}


{#- The truth rows the lists meet, as a subquery rather than a CTE, so that no engine keeps a
    copy of them: (truth_by, rm_user, rm_item, rm_grade) for every row that is relevant or adds
    gain, or with `judged` every judgment (_is_judged). A (user, item) judged twice is one item, counted once by
    count(distinct) and de-duplicated where it meets the hits (rm_hit_rows). -#}
{% macro _truth_rows(plan, judged=false, hint='') -%}
    {%- set grade = rank_metrics._truth_grade(plan) -%}
    (
        select {{ hint }}{{ rank_metrics._column_prefix(plan.truth_by) }}{{ plan.truth_user }} as rm_user, {{ plan.truth_item }} as rm_item, {{ grade }} as rm_grade
        from {{ plan.truth }} as rm_t
        {%- if plan.relevance is not none or plan.relevance_threshold is not none %}
        where {{ rank_metrics._is_judged(plan, grade) if judged else rank_metrics._is_joined(plan, grade) }}
        {%- endif %}
    )
{%- endmacro %}


{#- The rank column as it is checked and compared with k (see rm_lists): a double for a decimal
    with digits after the point. -#}
{% macro _rank_for_cuts(plan, alias='') -%}
    {%- if plan.rank_compared_as_double -%}cast({{ alias }}{{ plan.order_by }} as {{ rank_metrics.type_double() }})
    {%- else -%}{{ alias }}{{ plan.order_by }}
    {%- endif -%}
{%- endmacro %}
