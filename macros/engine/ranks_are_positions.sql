{#- An aggregate over one list's rows: 1 when a row's position is its rank for every position up
    to `cut` (then no sort is needed), else 0. `rank` is the rank column, `whole_rank` the same
    with any fractional rank replaced by 0, and `cut` the largest k, or none when every position
    counts (truth_scope='listed').

    Only the rows ranked within the cut (the head) are checked: when those j rows hold exactly
    the ranks 1..j and j = min(n, cut), each of them sits at the position its rank says and every
    other row comes after them, past the cut. Bitmasks prove it: j ranks whose bits are exactly
    bits 1..j are j distinct ranks 1..j. Lists whose head is too long for the bitmask are numbered
    by row_number, as are the lists this finds wanting. ranks_are_positions_in_one_word is for a
    cut of at most 61, the ranks_are_positions variants for a cut past 61 (or none);
    _ranks_are_positions picks. -#}

{#- Fills `head` with the head's row count (rows), the head's share of an aggregate's argument
    (only, with {} for the argument), the condition that the head is min(n, cut) rows long
    (long_enough) and that a row is in it (in_head, none without a cut). A macro returns only
    text, so it fills a dict, as _plan does. -#}
{% macro _list_head(head, rank, whole_rank, cut) -%}
    {%- if cut is none -%}
    {%- do head.update({'rows': 'count(*)', 'only': '{}', 'long_enough': '', 'in_head': none}) -%}
    {%- else -%}
    {#- an integer column (whole_rank is the rank itself) is compared as it is, with no cast -#}
    {%- set in_head = rank ~ ' <= ' ~ cut if whole_rank == rank else rank ~ ' < ' ~ cut ~ ' + 0.5' -%}
    {%- set rows = 'count(case when ' ~ in_head ~ ' then 1 end)' -%}
    {%- do head.update({'rows': rows, 'only': 'case when ' ~ in_head ~ ' then {} else 0 end',
                        'long_enough': ' and ' ~ rows ~ ' = least(count(*), ' ~ cut ~ ')', 'in_head': in_head}) -%}
    {%- endif -%}
{%- endmacro %}

{#- Fills `distinct` with aggregates over one list's rows (columns, each aliased) and a condition
    over those aliases that the rows ranked within `cut` (all of them when none) hold distinct
    items (a NULL item counts as a repeat), when the ranks are positions. Up to a cut of 20, and
    for items that every engine's max takes (`comparable`: numbers and text; PostgreSQL has no
    max of a uuid), the item at each rank, each compared with those before it: a few aggregates
    per list, where count(distinct) groups every row by its item (Spark, 10M rows, the check
    alone: 1.5 s against 7.7 s; issue 41). -#}
{% macro _head_items_distinct(distinct, rank, whole_rank, item, cut, comparable) -%}
    {%- set head = {} -%}{%- do rank_metrics._list_head(head, rank, whole_rank, cut) -%}
    {%- set columns = [head.rows ~ ' as rm_head_rows'] -%}
    {%- set pairs = [] -%}
    {%- if comparable and cut is not none and cut <= 20 -%}
        {%- for r in range(1, cut + 1) -%}
            {%- do columns.append('max(case when ' ~ rank ~ ' = ' ~ r ~ ' then ' ~ item ~ ' end) as rm_item_' ~ r) -%}
        {%- endfor -%}
        {%- for b in range(2, cut + 1) -%}
            {%- set before = [] -%}{%- for a in range(1, b) -%}{%- do before.append('rm_item_' ~ a) -%}{%- endfor -%}
            {%- do pairs.append('(rm_head_rows < ' ~ b ~ ' or coalesce(rm_item_' ~ b ~ ' not in (' ~ before | join(', ') ~ '), false))') -%}
        {%- endfor -%}
    {%- else -%}
        {%- do columns.append('count(distinct ' ~ (item if head.in_head is none else 'case when ' ~ head.in_head ~ ' then ' ~ item ~ ' end') ~ ') as rm_head_items') -%}
        {%- do pairs.append('rm_head_items = rm_head_rows') -%}
    {%- endif -%}
    {%- do distinct.update({'columns': columns, 'condition': (pairs | join('\n            and ')) or '1 = 1'}) -%}
{%- endmacro %}

{#- 'true' when the check is one 64-bit word (bit r for each head rank r, on every engine):
    the cut is at most 61. Then a list fails the check exactly when its head is not the ranks
    1..min(n, cut); past that the engines' variants also fail heads too long for their words. -#}
{% macro _head_fits_one_word(cut) -%}
    {{- 'true' if cut is not none and cut <= 61 else '' -}}
{%- endmacro %}

{#- What _ranked_hits calls: the one word when the cut allows it, else the engine's variant for
    longer heads. -#}
{% macro _ranks_are_positions(rank, whole_rank, cut) -%}
    {%- if rank_metrics._head_fits_one_word(cut) -%}
    {{ rank_metrics.ranks_are_positions_in_one_word(rank, whole_rank, cut) }}
    {%- else -%}
    {{ rank_metrics.ranks_are_positions(rank, whole_rank, cut) }}
    {%- endif -%}
{%- endmacro %}

{#- A cut of at most 61: the head's bits and its row count, three aggregates. -#}
{% macro default__ranks_are_positions_in_one_word(rank, whole_rank, cut) -%}
    {%- set head = {} -%}{%- do rank_metrics._list_head(head, rank, whole_rank, cut) -%}
    {%- set one = 'cast(1 as bigint)' -%}
    case when {{ rank_metrics.bit_or(head.only | replace('{}', rank_metrics.shift_left(one, 'cast(greatest(' ~ whole_rank ~ ', 0) as integer)'))) }}
            = {{ rank_metrics.shift_left(one, 'cast(' ~ head.rows ~ ' + 1 as integer)') }} - 2{{ head.long_enough }}
        then 1 else 0 end
{%- endmacro %}

{#- DuckDB sums a bigint into a 128-bit integer, so two aggregates do: the sum over the list's rows
    of 2^r for a head rank r (2^0 for one below 1 or fractional) and 2^(cut + 1) for every row past
    the head, against the sum of a list whose head is 1..c, c = min(n, cut):
    2^(c + 1) - 2 + (n - c) * 2^(cut + 1). Only such a list has that sum. A sum of t powers of two
    has at most t bits set, exactly t when no two are equal. With n <= cut, the target has n bits
    set (1..n), so the n rows hold the distinct ranks 1..n. With n > cut, say h rows are in the
    head: h < cut leaves the head's part negative; h = cut gives cut terms with cut bits set
    (the ranks 1..cut); and h > cut needs h terms of at most 2^cut to make
    (2 (h - cut) + 1) 2^cut + 2^cut - 2, which takes at least 2 (h - cut) + 1 + (cut - 1) = 2h - cut
    > h of them. About 2% of MAP@12 at 10M rows against the three aggregates (bench/README). -#}
{% macro duckdb__ranks_are_positions_in_one_word(rank, whole_rank, cut) -%}
    {%- set past_head = cut + 1 -%}
    {%- if whole_rank == rank -%}
    {%- set power = 'least(greatest(' ~ rank ~ ', 0), ' ~ past_head ~ ')' -%}
    {%- else -%}
    {%- set power = 'case when ' ~ rank ~ ' < ' ~ cut ~ ' + 0.5 then greatest(' ~ whole_rank ~ ', 0) else ' ~ past_head ~ ' end' -%}
    {%- endif -%}
    {%- set one = 'cast(1 as hugeint)' -%}
    case when sum(cast(1 as bigint) << cast({{ power }} as integer))
            = case when count(*) <= {{ cut }} then ({{ one }} << cast(count(*) + 1 as integer)) - 2
                else ({{ one }} << {{ past_head }}) * (count(*) - {{ cut }} + 1) - 2 end
        then 1 else 0 end
{%- endmacro %}

{#- Two 64-bit words, heads up to 122 rows: word 1 has bit r for a rank r in 1..61, bit 62 for a
    larger one and bit 0 for anything else; word 2 has bit r - 61 for r in 62..122, bit 62 above
    that and bit 0 below. The ranks are 1..j when word 1 is bits 1..min(j, 61) (and 62 when
    j > 61) and word 2 bits 0..j - 61. (greatest(r, 61) - 61, not greatest(r - 61, 0): a rank
    at its type's minimum overflowed on PostgreSQL and Spark.) -#}
{% macro default__ranks_are_positions(rank, whole_rank, cut) -%}
    {%- set head = {} -%}{%- do rank_metrics._list_head(head, rank, whole_rank, cut) -%}
    {%- set j = head.rows -%}
    {%- set one = 'cast(1 as bigint)' -%}
    case when {{ j }} <= 122{{ head.long_enough }}
        and {{ rank_metrics.bit_or(head.only | replace('{}', rank_metrics.shift_left(one, 'cast(least(greatest(' ~ whole_rank ~ ', 0), 62) as integer)'))) }}
            = {{ rank_metrics.shift_left(one, 'cast(least(' ~ j ~ ', 61) + 1 as integer)') }} - 2
              + case when {{ j }} > 61 then {{ rank_metrics.shift_left(one, '62') }} else 0 end
        and {{ rank_metrics.bit_or(head.only | replace('{}', rank_metrics.shift_left(one, 'cast(least(greatest(' ~ rank ~ ', 61) - 61, 62) as integer)'))) }}
            = {{ rank_metrics.shift_left(one, 'cast(least(greatest(' ~ j ~ ' - 61, 0), 61) + 1 as integer)') }} - 1
        then 1 else 0 end
{%- endmacro %}

{#- DuckDB has a 128-bit integer, so one word does for heads up to 125 rows: bit r for a rank r
    in 1..125, bit 126 for a larger one, bit 0 for anything else (one aggregate instead of two:
    about 5% of MAP@12 at 10M rows). -#}
{% macro duckdb__ranks_are_positions(rank, whole_rank, cut) -%}
    {%- set head = {} -%}{%- do rank_metrics._list_head(head, rank, whole_rank, cut) -%}
    {%- set j = head.rows -%}
    {%- set one = 'cast(1 as hugeint)' -%}
    case when {{ j }} <= 125{{ head.long_enough }}
        and bit_or({{ head.only | replace('{}', one ~ ' << cast(least(greatest(' ~ whole_rank ~ ', 0), 126) as integer)') }})
            = ({{ one }} << cast(least({{ j }}, 125) + 1 as integer)) - 2
        then 1 else 0 end
{%- endmacro %}
