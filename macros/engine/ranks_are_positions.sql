{#- An aggregate over one list's rows: 1 when its n ranks are exactly the whole numbers 1..n (then a
    row's position is its rank, with no sort), else 0. `rank` is the rank column, `whole_rank` the
    same with any fractional rank replaced by 0. Bitmasks prove it: n ranks whose bits are exactly
    bits 1..n are n distinct ranks 1..n. Lists too long for the bitmask are numbered by
    row_number, as are the lists this finds wanting. -#}

{#- Two 64-bit words, lists up to 122 long: word 1 has bit r for a rank r in 1..61, bit 62 for a
    larger one and bit 0 for anything else; word 2 has bit r - 61 for r in 62..122, bit 62 above
    that and bit 0 below. The ranks are 1..n when word 1 is bits 1..min(n, 61) (and 62 when
    n > 61) and word 2 bits 0..n - 61. -#}
{% macro default__ranks_are_positions(rank, whole_rank) -%}
    {%- set one = 'cast(1 as bigint)' -%}
    case when count(*) <= 122
        and bit_or({{ rank_metrics.shift_left(one, 'cast(least(greatest(' ~ whole_rank ~ ', 0), 62) as integer)') }})
            = {{ rank_metrics.shift_left(one, 'cast(least(count(*), 61) + 1 as integer)') }} - 2
              + case when count(*) > 61 then {{ rank_metrics.shift_left(one, '62') }} else 0 end
        and bit_or({{ rank_metrics.shift_left(one, 'cast(least(greatest(' ~ rank ~ ' - 61, 0), 62) as integer)') }})
            = {{ rank_metrics.shift_left(one, 'cast(least(greatest(count(*) - 61, 0), 61) + 1 as integer)') }} - 1
        then 1 else 0 end
{%- endmacro %}

{#- DuckDB has a 128-bit integer, so one word does, for lists up to 125 long: bit r for a rank r
    in 1..125, bit 126 for a larger one, bit 0 for anything else (one aggregate instead of two:
    about 5% of MAP@12 at 10M rows). -#}
{% macro duckdb__ranks_are_positions(rank, whole_rank) -%}
    {%- set one = 'cast(1 as hugeint)' -%}
    case when count(*) <= 125
        and bit_or({{ one }} << cast(least(greatest({{ whole_rank }}, 0), 126) as integer))
            = ({{ one }} << cast(least(count(*), 125) + 1 as integer)) - 2
        then 1 else 0 end
{%- endmacro %}
