{#- The per-user step of the one pass, after _ranked_hits and _evaluated_users. Each user's hits
    are summed once for every k together (one column per k; hits by count, which every engine
    keeps as a plain integer), so every metric at every k is one expression of one row: its
    _per_user_<metric> macro, in the metric's own file.
      rm_user_sums    per (by, user) with a hit: hits, AP's precision sum, DCG, RBP's and ERR's
                      sums and AUC's sum of hit positions for each k, the first hit
      rm_user_wide    per evaluated user: n_relevant, and for the i-th k the columns suffixed _i:
                      rm_n_hits_i, rm_precision_sum_i, rm_dcg_i, rm_idcg_i, rm_rbp_i, rm_err_i (0
                      without hits)
    Under the plan's hit_patterns (group results whose metrics need no more than the pattern of
    relevant hit positions, m(u) and n(u)) a user's hits are one word, users are counted per
    pattern, and rm_user_wide holds a row per (by, pattern) with its rm_users: every sum above
    is then taken once per pattern, a few thousand rows however many users there are.
    Group results average the wide rows (_user_values); per-user output spreads them to a row
    per k (_user_metrics). -#}
{% macro _user_sums(plan) %}
{%- if plan.hit_patterns -%}
    {{ rank_metrics._pattern_sums(plan) }}
{%- else -%}
{%- set by = rank_metrics._column_prefix(plan.by) -%}
{%- set double = rank_metrics.type_double() -%}
{%- set sums = plan.sums -%}
{%- set term_sums = plan.term_sums -%}
{#- the ideal DCG is keyed like m(u): by truth's user, or by the list under truth_scope='listed' -#}
{%- set ideal_keys = plan.by if plan.truth_scope == 'listed' else plan.truth_by -%}
{%- set largest_k = plan.ks | max -%}
rm_user_sums as (
    {%- set bits = 'precision_sum' in sums and plan.hits_as_bits %}
    {%- if bits %}
    select {{ rank_metrics._sums_of_parts('s', plan.ks, ['rm_precision_sum']) }}
    from (
    select s.*
        {%- for k in plan.ks %},
        {{ rank_metrics._precision_sum_from_bits('s.rm_hit_bits', k, 0 if loop.first else loop.previtem) }} as rm_precision_sum_{{ rank_metrics._part(plan.ks, loop.index) }}
        {%- endfor %}
    from (
    {%- endif %}
    {#- under tie_break='average' a hit's rows are its positions in its tie group, each with the
        chance of being there (rm_weight): the hits within k are their expected number -#}
    {%- set weight = ' * rm_weight' if plan.tie_break == 'average' else '' %}
    select {{ by }}rm_user
        {%- for k in plan.ks %},
        {%- if weight %}
        {{ rank_metrics.sum_of_values('case when rm_position <= ' ~ k ~ ' and rm_relevant = 1 then rm_weight else 0 end') }} as rm_hits_{{ loop.index }}
        {%- else %}
        count(case when rm_position <= {{ k }} and rm_relevant = 1 then 1 end) as rm_hits_{{ loop.index }}
        {%- endif %}
        {%- if 'precision_sum' in sums and not bits %},
        {{ rank_metrics.sum_of_values('case when rm_position <= ' ~ k ~ ' and rm_relevant = 1 then cast(rm_hits_so_far as ' ~ double ~ ') / rm_position else 0 end') }} as rm_precision_sum_{{ loop.index }}
        {%- endif %}
        {%- if 'dcg' in sums %},
        {{ rank_metrics.sum_of_values('case when rm_position <= ' ~ k ~ ' then ' ~ rank_metrics._gain(plan, 'rm_grade') ~ ' / ' ~ rank_metrics._discount('rm_position') ~ weight ~ ' else 0 end', any_size=true) }} as rm_dcg_{{ loop.index }}
        {%- endif %}
        {%- set index = loop.index %}
        {%- for sum in term_sums %},
        {{ rank_metrics.sum_of_values(rank_metrics._hit_term(plan, sum, k), any_size=true) }} as rm_{{ sum }}_{{ index }}
        {%- endfor %}
        {%- endfor %}
        {%- if 'first_hit' in sums %},
        min(case when rm_relevant = 1 then rm_position end) as rm_first_hit
        {%- endif %}
        {%- if bits %},
        {{ rank_metrics._hit_bits() }} as rm_hit_bits
        {%- endif %}
    from rm_hits
    group by {{ by }}rm_user
    {%- if bits %}
    ) as s
    ) as s
    {%- endif %}
),
{%- if 'dcg' in sums and plan.ideal_from_m %}
{{ rank_metrics._ideal_by_count(plan) }},
{%- elif 'dcg' in sums %}
rm_ideal_items as (
    -- the items that add gain, with their gains: all of the user's truth, or the listed truth
    select {{ rank_metrics._column_prefix(ideal_keys) }}rm_user, rm_item, {{ rank_metrics._gain(plan, 'max(rm_grade)') }} as rm_gain
    from {{ 'rm_listed_items' if plan.truth_scope == 'listed' else rank_metrics._truth_rows(plan) ~ ' as t' }}
    group by {{ rank_metrics._column_prefix(ideal_keys) }}rm_user, rm_item
),
rm_ideal as (
    -- IDCG@k: the gains largest first, cut at each k (which of two equal gains comes first
    -- changes nothing; the item makes the order unique all the same)
    select {{ rank_metrics._column_prefix(ideal_keys) }}rm_user
        {%- for k in plan.ks %},
        {{ rank_metrics.sum_of_values('case when rm_ideal_position <= ' ~ k ~ ' then rm_gain / ' ~ rank_metrics._discount('rm_ideal_position') ~ ' else 0 end', any_size=true) }} as rm_idcg_{{ loop.index }}
        {%- endfor %}
    from (
        select {{ rank_metrics._column_prefix(ideal_keys) }}rm_user, rm_gain,
            row_number() over (partition by {{ rank_metrics._column_prefix(ideal_keys) }}rm_user
                               order by rm_gain desc, rm_item) as rm_ideal_position
        from rm_ideal_items
        where rm_gain > 0
    ) as ranked
    where rm_ideal_position <= {{ largest_k }}
    group by {{ rank_metrics._column_prefix(ideal_keys) }}rm_user
),
{%- endif %}
rm_user_wide as (
    select {{ rank_metrics._column_prefix(plan.by, 'u') }}u.rm_user, u.rm_n_relevant
        {%- for k in plan.ks %},
        coalesce(s.rm_hits_{{ loop.index }}, 0) as rm_n_hits_{{ loop.index }}
        {%- if 'precision_sum' in sums %},
        coalesce(s.rm_precision_sum_{{ loop.index }}, 0) as rm_precision_sum_{{ loop.index }}
        {%- endif %}
        {%- if 'dcg' in sums %},
        coalesce(s.rm_dcg_{{ loop.index }}, 0) as rm_dcg_{{ loop.index }},
        coalesce(i.rm_idcg_{{ loop.index }}, 0) as rm_idcg_{{ loop.index }}
        {%- endif %}
        {%- set index = loop.index %}
        {%- for sum in term_sums %},
        coalesce(s.rm_{{ sum }}_{{ index }}, 0) as rm_{{ sum }}_{{ index }}
        {%- endfor %}
        {%- endfor %}
        {%- if 'first_hit' in sums %},
        s.rm_first_hit
        {%- endif %}
        {%- if plan.needs_list_length %},
        coalesce(p.rm_list_length, 0) as rm_list_length
        {%- endif %}
        {{- rank_metrics._cutoff_free_columns(plan) }}
        {%- for sum in plan.sums_of_their_own %}{% set sum_loop = loop %}{% for k in plan.ks %},
        coalesce(o{{ sum_loop.index }}.rm_{{ sum }}_{{ loop.index }}, 0) as rm_{{ sum }}_{{ loop.index }}
        {%- endfor %}{% endfor %}
    from rm_users as u
    left join rm_user_sums as s
        on {{ rank_metrics._equal_prefix(plan.by, 'u', 's') }}u.rm_user = s.rm_user
    {{- rank_metrics._cutoff_free_joins(plan) }}
    {%- for sum in plan.sums_of_their_own %}
    left join rm_{{ sum }} as o{{ loop.index }}
        on {{ rank_metrics._equal_prefix(plan.by, 'u', 'o' ~ loop.index) }}u.rm_user = o{{ loop.index }}.rm_user
    {%- endfor %}
    {%- if 'dcg' in sums and plan.ideal_from_m %}
    left join rm_ideal_by_count as i
        on i.rm_count = least(u.rm_n_relevant, {{ largest_k }})
    {%- elif 'dcg' in sums %}
    left join rm_ideal as i
        on {{ rank_metrics._equal_prefix(ideal_keys, 'u', 'i') }}u.rm_user = i.rm_user
    {%- endif %}
    {%- if plan.needs_list_length %}
    left join rm_prediction_users as p
        on {{ rank_metrics._equal_prefix(plan.by, 'u', 'p') }}u.rm_user = p.rm_user
    {%- endif %}
)
{%- endif -%}
{%- endmacro %}

{#- _user_sums under hit_patterns. Every hit is relevant or adds no gain (ideal_from_m, when NDCG
    is asked), so from the word of relevant hit positions alone: hits@k are its bits 1..k, AP's
    precision sum as below, DCG@k (binary gains) the discounts of its bits 1..k, the first hit its
    lowest bit; IDCG@k is the discounts of positions 1..min(m(u), k), written out on the pattern
    row (_binary_ideal_dcg) rather than joined from rm_ideal_by_count: on Spark that lookup was a
    window and a join, two more stages to plan (bench/README). -#}
{% macro _pattern_sums(plan) %}
{%- set by = rank_metrics._column_prefix(plan.by) -%}
{%- set sums = plan.sums -%}
{%- set term_sums = plan.term_sums -%}
{%- set bits = 's.rm_hit_bits' -%}
{%- set list_length = 'coalesce(p.rm_list_length, 0)' -%}
{#- under truth_scope='listed' rm_users brings each user's word (_evaluated_users) -#}
{%- set listed = plan.truth_scope == 'listed' -%}
{%- set word = 'u.rm_hit_bits' if listed else 'coalesce(b.rm_hit_bits, 0)' -%}
{%- if not listed -%}
rm_user_bits as (
    select {{ by }}rm_user, {{ rank_metrics._hit_bits() }} as rm_hit_bits
    from rm_hits
    group by {{ by }}rm_user
),
{%- endif %}
{#- the words of the sums of their own (RBP's judged positions), which the patterns hold too -#}
{%- set own_words = [] -%}
{%- for sum in plan.sums_of_their_own %}{% do own_words.append(rank_metrics._word_of_its_own(sum) | trim) %}{% endfor -%}
{#- under truth_scope='listed' and users='predictions', rm_group_truth_users holds each listed
    user with a truth item in its list, with its word: the users with a hit row and more -#}
{%- set counted_apart = (plan.users == 'predictions' or (plan.users == 'both' and not listed))
                        and not plan.needs_list_length and not own_words %}
{%- if counted_apart %}
rm_patterns as (
    -- the evaluated users counted per pattern. Under users='predictions' every listed user is
    -- one (under 'both' every listed user truth knows, the only lists rm_prediction_users then
    -- holds), and a user without a hit row has every metric 0 whatever its m(u): those users are
    -- not matched with truth but counted, as the group's listed users less those with hit rows
    -- (pattern: word 0, m 0; under truth_scope='listed', less those with a truth item listed);
    -- the patterns and the group's count are one union, each input read once, because Spark
    -- computes a CTE at each of its references
    {%- set group = rank_metrics._over_groups(plan.by, 'rm_users') %}
    select {{ by }}rm_n_relevant, rm_hit_bits, rm_users
    from (
        select {{ by }}rm_n_relevant, rm_hit_bits,
            case when rm_listed = 1 then rm_users - coalesce(sum(case when rm_listed = 0 then rm_users end) {{ group }}, 0)
                 else rm_users end as rm_users
        from (
            {%- if listed %}
            select {{ by }}rm_n_relevant, rm_hit_bits, count(*) as rm_users, 0 as rm_listed
            from rm_group_truth_users
            group by {{ by }}rm_n_relevant, rm_hit_bits
            {%- else %}
            select {{ rank_metrics._column_prefix(plan.by, 'b') }}coalesce(t.rm_n_relevant, 0) as rm_n_relevant, b.rm_hit_bits, count(*) as rm_users, 0 as rm_listed
            from rm_user_bits as b
            left join rm_group_truth_users as t
                on {{ rank_metrics._equal_prefix(plan.by, 'b', 't') }}b.rm_user = t.rm_user
            group by {{ rank_metrics._column_prefix(plan.by, 'b') }}coalesce(t.rm_n_relevant, 0), b.rm_hit_bits
            {%- endif %}
            union all
            select {{ by }}0 as rm_n_relevant, cast(0 as bigint) as rm_hit_bits, count(*) as rm_users, 1 as rm_listed
            from rm_prediction_users
            {{ rank_metrics._group_by(plan.by) }}
        ) as counted
    ) as counted
    where rm_users > 0
),
{%- else %}
rm_patterns as (
    -- the evaluated users counted per pattern; users without a hit have the word 0
    select {{ rank_metrics._column_prefix(plan.by, 'u') }}u.rm_n_relevant, {{ word }} as rm_hit_bits,
        {%- if plan.needs_list_length %}
        {{ list_length }} as rm_list_length,
        {%- endif %}
        {%- for sum in plan.sums_of_their_own %}
        coalesce(o{{ loop.index }}.{{ own_words[loop.index0] }}, 0) as {{ own_words[loop.index0] }},
        {%- endfor %}
        count(*) as rm_users
    from rm_users as u
    {%- if not listed %}
    left join rm_user_bits as b
        on {{ rank_metrics._equal_prefix(plan.by, 'u', 'b') }}u.rm_user = b.rm_user
    {%- endif %}
    {%- if plan.needs_list_length %}
    left join rm_prediction_users as p
        on {{ rank_metrics._equal_prefix(plan.by, 'u', 'p') }}u.rm_user = p.rm_user
    {%- endif %}
    {%- for sum in plan.sums_of_their_own %}
    left join rm_{{ sum }} as o{{ loop.index }}
        on {{ rank_metrics._equal_prefix(plan.by, 'u', 'o' ~ loop.index) }}u.rm_user = o{{ loop.index }}.rm_user
    {%- endfor %}
    group by {{ rank_metrics._column_prefix(plan.by, 'u') }}u.rm_n_relevant, {{ word }}
        {%- if plan.needs_list_length %}, {{ list_length }}{% endif %}
        {%- for sum in plan.sums_of_their_own %}, coalesce(o{{ loop.index }}.{{ own_words[loop.index0] }}, 0){% endfor %}
),
{%- endif %}
rm_user_wide as (
    {%- set own_columns = [] %}
    {%- for sum in plan.sums_of_their_own %}{% do own_columns.append('rm_' ~ sum) %}{% endfor %}
    select {{ rank_metrics._sums_of_parts('w', plan.ks, (['rm_precision_sum'] if 'precision_sum' in sums else [])
                                                        + (['rm_dcg', 'rm_idcg'] if 'dcg' in sums else [])
                                                        + rank_metrics._hit_term_columns(plan).split() + own_columns) }}
    from (
    select {{ rank_metrics._column_prefix(plan.by, 's') }}s.rm_users, s.rm_n_relevant
        {%- for k in plan.ks %},
        {{ rank_metrics.bit_count(bits ~ ' & ' ~ (2 ** (k + 1) - 2)) }} as rm_n_hits_{{ loop.index }}
        {%- if 'precision_sum' in sums %},
        {{ rank_metrics._precision_sum_from_bits(bits, k, 0 if loop.first else loop.previtem) }} as rm_precision_sum_{{ rank_metrics._part(plan.ks, loop.index) }}
        {%- endif %}
        {%- if 'dcg' in sums %},
        {{ rank_metrics._binary_dcg_from_bits(bits, k, 0 if loop.first else loop.previtem) }} as rm_dcg_{{ rank_metrics._part(plan.ks, loop.index) }},
        {{ rank_metrics._binary_ideal_dcg('s.rm_n_relevant', k, 0 if loop.first else loop.previtem) }} as rm_idcg_{{ rank_metrics._part(plan.ks, loop.index) }}
        {%- endif %}
        {%- set k_loop = loop %}
        {%- for sum in term_sums %},
        {{ rank_metrics._hit_term_from_bits(plan, sum, bits, k, 0 if k_loop.first else k_loop.previtem) }} as rm_{{ sum }}_{{ rank_metrics._part(plan.ks, k_loop.index) }}
        {%- endfor %}
        {%- for sum in plan.sums_of_their_own %},
        {{ rank_metrics._sum_of_its_own(plan, sum, 's.' ~ own_words[loop.index0], k, 0 if k_loop.first else k_loop.previtem) }} as rm_{{ sum }}_{{ rank_metrics._part(plan.ks, k_loop.index) }}
        {%- endfor %}
        {%- endfor %}
        {%- if 'first_hit' in sums %},
        {#- the lowest bit alone, less one, is as many ones as the first hit's position -#}
        case when {{ bits }} <> 0 then {{ rank_metrics.bit_count('(' ~ bits ~ ' & -' ~ bits ~ ') - 1') }} end as rm_first_hit
        {%- endif %}
        {%- if plan.needs_list_length %},
        s.rm_list_length
        {%- endif %}
    from rm_patterns as s
    ) as w
)
{%- endmacro %}

{#- A user's relevant hits as one 64-bit word, bit p for a hit at position p (an aggregate over
    rm_hits; every hit is within the largest k, at most 61). -#}
{% macro _hit_bits() -%}
    {{ rank_metrics.bit_or('case when rm_relevant = 1 then ' ~ rank_metrics.shift_left('cast(1 as bigint)', 'cast(rm_position as integer)') ~ ' else 0 end') }}
{%- endmacro %}

{#- CTE rm_ideal_by_count, for plans with ideal_from_m whose rows are users (under hit patterns,
    _binary_ideal_dcg writes IDCG@k out instead). -#}
{% macro _ideal_by_count(plan) -%}
{%- set largest_k = plan.ks | max -%}
{%- set count_digits = (largest_k | string) | length -%}
rm_ideal_by_count as (
    -- IDCG@k when every item that adds gain adds 1 (truth without grades, or binary gain): the
    -- sum of the first min(m, k) discounts, looked up by min(m, largest k) instead of ranking truth
    select rm_count
        {%- for k in plan.ks %},
        sum(case when rm_count <= {{ k }} then 1 / {{ rank_metrics._discount('rm_count') }} else 0 end)
            over ({{ rank_metrics._one_partition('rm_count') }} order by rm_count rows between unbounded preceding and current row) as rm_idcg_{{ loop.index }}
        {%- endfor %}
    from (
        select {% for digit in range(count_digits) %}{{ ' + ' if not loop.first }}{{ 10 ** digit }} * d{{ digit }}.rm_digit{% endfor %} + 1 as rm_count
        from {% for digit in range(count_digits) %}{{ ' cross join ' if not loop.first }}(
            {%- for value in range(10) %}select {{ value }} as rm_digit{{ ' union all ' if not loop.last }}{% endfor -%}
        ) as d{{ digit }}{% endfor %}
    ) as counts
    where rm_count <= {{ largest_k }}
)
{%- endmacro %}

{#- Sums over positions from bits are taken in parts, each over the positions after the k
    before it (k 5, 10, 20, 50: 1..5, 6..10, 11..20, 21..50), and each k's sum is the sum of
    its parts: 50 terms per metric, where a sum from 1 for every k was 85. Spark's analysis and
    adaptive re-planning of evaluate's query grow with every term (its evaluate at 10M: 7.15 s
    before, 6.63 s after, bench/README); DuckDB's time does not change. With one k, the one part
    is the sum. -#}
{% macro _part(ks, index) -%}
    {{ index if ks | length == 1 else 'part_' ~ index }}
{%- endmacro %}

{#- The columns of `alias` (a select of parts, _part) with, for each of `sums`, the sum of each
    k's parts as <sum>_<i>: the parts themselves are left in (no consumer reads them). -#}
{% macro _sums_of_parts(alias, ks, sums) -%}
    {{ alias }}.*
    {%- if ks | length > 1 %}
    {%- for name in sums %}
    {%- for last in range(1, ks | length + 1) %},
        {% for part in range(1, last + 1) %}{{ ' + ' if not loop.first }}{{ alias }}.{{ name }}_part_{{ part }}{% endfor %} as {{ name }}_{{ last }}
    {%- endfor %}
    {%- endfor %}
    {%- endif %}
{%- endmacro %}

{#- DCG@k with binary gains from the word of hit positions: the discount of each bit 1..k set. -#}
{% macro _binary_dcg_from_bits(bits, k, after=0) -%}
    {%- for r in range(after + 1, k + 1) %}{{ '\n            + ' if not loop.first }}case when ({{ bits }} & {{ 2 ** r }}) <> 0 then 1 / {{ rank_metrics._discount(r) }} else 0 end
    {%- endfor -%}
{%- endmacro %}

{#- IDCG@k with binary gains from m(u) (`count`): the discount of each position 1..k up to it. -#}
{% macro _binary_ideal_dcg(count, k, after=0) -%}
    {%- for r in range(after + 1, k + 1) %}{{ '\n            + ' if not loop.first }}case when {{ count }} >= {{ r }} then 1 / {{ rank_metrics._discount(r) }} else 0 end
    {%- endfor -%}
{%- endmacro %}

{#- AP's precision sum within k from the word of relevant hit positions (bit p for a hit at p):
    for each position r up to k that holds a hit, the hits up to r (the bits 1..r) over r. A sum
    of k terms, on one row per user, instead of a window over the hits. -#}
{% macro _precision_sum_from_bits(bits, k, after=0) -%}
    {%- set double = rank_metrics.type_double() -%}
    {%- for r in range(after + 1, k + 1) %}{{ '\n            + ' if not loop.first }}case when ({{ bits }} & {{ 2 ** r }}) <> 0 then cast({{ rank_metrics.bit_count(bits ~ ' & ' ~ (2 ** (r + 1) - 1)) }} as {{ double }}) / {{ r }} else 0 end
    {%- endfor -%}
{%- endmacro %}


{#- CTE rm_user_values, after _user_sums: one row per evaluated user (or, under hit_patterns, per
    pattern with its rm_users) with every requested metric at every k, rm_<metric>_<i> for the
    i-th k. What group results average (under mean='geometric', their logs: _averaged). -#}
{% macro _user_values(plan) %}
{%- set stacked = plan.hit_patterns and plan.cutoff_free %}
{%- set double = rank_metrics.type_double() %}
{#- the users' own weights some metrics' means read (_user_weight: the list length) -#}
{%- set weighted = [] %}
{%- for metric in plan.metrics if rank_metrics._user_weight(plan, metric) | trim %}{% do weighted.append(metric) %}{% endfor %}
rm_user_values as (
    select {{ rank_metrics._column_prefix(plan.by) }}{{ 'rm_users' if plan.hit_patterns else 'rm_user' }}{{ ', rm_list_length' if weighted }}
        {%- for slot in plan.slots %}
        {%- set at = slot.value[slot.metric | length:] %},
        {%- if stacked and slot.k is none %}
        cast(null as {{ double }}) as rm_{{ slot.value }}
        {%- else %}
        {{ rank_metrics._averaged(plan, rank_metrics._per_user(plan, slot.metric, slot.k, at), slot.metric in plan.partial) }} as rm_{{ slot.value }}
        {%- endif %}
        {%- endfor %}
    from rm_user_wide
    {%- if stacked %}
    union all
    {#- under hit patterns, the cutoff-free metrics' values, stacked under the pattern rows, whose
        values at a k they leave NULL: the users counted per value (rm_users), as the patterns
        count theirs. R-precision's hits over R and bpref's terms take few distinct values, so
        the group's mean and its spread are taken over a few thousand rows, not a row per user
        (every metric at 10M, in one DuckDB process: 2.13 s -> 1.23 s, bench/README) #}
    select {{ rank_metrics._column_prefix(plan.by) }}cast(count(*) as bigint) as rm_users{{ ', cast(null as bigint) as rm_list_length' if weighted }}
        {%- for slot in plan.slots %},
        {%- if slot.k is none %}
        rm_{{ slot.value }}
        {%- else %}
        cast(null as {{ double }}) as rm_{{ slot.value }}
        {%- endif %}
        {%- endfor %}
    from (
        select {{ rank_metrics._column_prefix(plan.by) }}
            {%- for slot in plan.slots if slot.k is none %}{{ ',' if not loop.first }}
            {{ rank_metrics._averaged(plan, rank_metrics._per_user(plan, slot.metric), slot.metric in plan.partial) }} as rm_{{ slot.value }}
            {%- endfor %}
        from (
            select {{ rank_metrics._column_prefix(plan.by, 'u') }}u.rm_user
                {{- rank_metrics._cutoff_free_columns(plan) }}
            from rm_users as u
            {{- rank_metrics._cutoff_free_joins(plan) }}
        ) as u
    ) as v
    group by {{ rank_metrics._column_prefix(plan.by) }}
        {%- for slot in plan.slots if slot.k is none %}{{ ', ' if not loop.first }}rm_{{ slot.value }}{% endfor %}
    {%- endif %}
)
{%- endmacro %}

{#- The cutoff-free metrics' columns of rm_user_wide (0 for a user without a row of their CTE),
    and the joins of those CTEs to rm_users as u. -#}
{% macro _cutoff_free_columns(plan) -%}
    {%- for sum in plan.cutoff_free_sums %}{% for column in rank_metrics._cutoff_free_sum(plan, sum, columns=true).split() %},
        coalesce(c_{{ sum }}.{{ column }}, 0) as {{ column }}
    {%- endfor %}{% endfor -%}
{%- endmacro %}

{% macro _cutoff_free_joins(plan) -%}
    {%- for sum in plan.cutoff_free_sums %}
    left join rm_{{ sum }} as c_{{ sum }}
        on {{ rank_metrics._equal_prefix(plan.by, 'u', 'c_' ~ sum) }}u.rm_user = c_{{ sum }}.rm_user
    {%- endfor -%}
{%- endmacro %}

{#- The columns of the plan's sums of a term per hit (_hit_term_sums), as words. -#}
{% macro _hit_term_columns(plan) -%}
    {%- for sum in plan.term_sums %}{{ ' ' if not loop.first }}rm_{{ sum }}{% endfor -%}
{%- endmacro %}

{#- CTEs rm_ks and rm_user_metrics, after _user_sums: every requested metric per evaluated user
    and k, a row each: <by columns>, rm_user, k, one column per metric, n_relevant, n_hits. -#}
{% macro _user_metrics(plan) %}
{%- set by = rank_metrics._column_prefix(plan.by) -%}
{%- set sums = plan.sums -%}
{#- the sums that differ by k, besides hits: AP's precision sum, DCG, the ideal DCG, the sums of a term per hit,
    the sums of their own -#}
{%- set by_k = (['rm_precision_sum'] if 'precision_sum' in sums else []) + (['rm_dcg', 'rm_idcg'] if 'dcg' in sums else [])
                + rank_metrics._hit_term_columns(plan).split() -%}
{%- for sum in plan.sums_of_their_own %}{% do by_k.append('rm_' ~ sum) %}{% endfor -%}
{{ rank_metrics._ks(plan) }},
rm_user_k as (
    -- the wide row spread to a row per k
    {#- (and to the row of k NULL for cutoff-free metrics, rm_ks' last) #}
    select {{ rank_metrics._column_prefix(plan.by, 'u') }}u.rm_user, ks.k, u.rm_n_relevant,
        {%- for column in by_k %}
        case {%- for k in plan.ks %} when ks.k = {{ k }} then u.{{ column }}_{{ loop.index }}{% endfor %} end as {{ column }},
        {%- endfor %}
        {%- for sum in plan.cutoff_free_sums %}{% for column in rank_metrics._cutoff_free_sum(plan, sum, columns=true).split() %}
        u.{{ column }},
        {%- endfor %}{% endfor %}
        {%- if 'first_hit' in sums %}
        u.rm_first_hit,
        {%- endif %}
        {%- if plan.needs_list_length %}
        u.rm_list_length,
        {%- endif %}
        case {%- for k in plan.ks %} when ks.k = {{ k }} then u.rm_n_hits_{{ loop.index }}{% endfor %} end as rm_n_hits
    from rm_user_wide as u
    cross join rm_ks as ks
),
rm_user_metrics as (
    {#- with cutoff-free metrics, the rows of a k hold the other metrics, the row of k NULL them #}
    select {{ by }}rm_user, k,
        {%- for metric in plan.metrics %}
        {%- set value = rank_metrics._per_user(plan, metric) %}
        {%- if plan.cutoff_free %}
        case when k is {{ 'null' if metric in plan.cutoff_free else 'not null' }} then {{ value }} end as {{ plan.metric_columns[metric] }},
        {%- else %}
        {{ value }} as {{ plan.metric_columns[metric] }},
        {%- endif %}
        {%- endfor %}
        cast(rm_n_relevant as bigint) as n_relevant,
        {#- under tie_break='average', the expected number of hits #}
        {{ 'rm_n_hits' if plan.tie_break == 'average' else 'cast(rm_n_hits as bigint)' }} as n_hits
    from rm_user_k
    {%- if plan.cutoff_free and plan.cutoff_free | length == plan.metrics | length %}
    where k is null
    {%- endif %}
)
{%- endmacro %}

{#- CTE rm_ks: the k values, a row each, and NULL for the plan's cutoff-free metrics. -#}
{% macro _ks(plan) -%}
rm_ks as (
    {%- for k in plan.ks %}
    select cast({{ k }} as bigint) as k{{ ' union all' if not loop.last }}
    {%- endfor %}
    {%- if plan.cutoff_free %}
    union all
    select cast(null as bigint) as k
    {%- endif %}
)
{%- endmacro %}
