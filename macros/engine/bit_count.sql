{#- The number of 1 bits in a 64-bit integer, on the engines that have it: AP's running count of
    hits is then read off a bitmask of the hit positions instead of a window (_plan's
    hits_as_bits). default__ renders nothing, and then the window stays. -#}
{% macro default__bit_count(value) -%}
{%- endmacro %}

{#- DuckDB's bit_count is a TINYINT: AUC's pairs, n_hits × (n_hits − 1), overflowed it at 12 hits. -#}
{% macro duckdb__bit_count(value) -%}
    cast(bit_count({{ value }}) as bigint)
{%- endmacro %}

{#- PostgreSQL counts the bits of a bit string (14 and later). -#}
{% macro postgres__bit_count(value) -%}
    bit_count(cast({{ value }} as bit(64)))
{%- endmacro %}

{#- Redshift takes PostgreSQL's variants, but has neither bit_count nor bit strings. -#}
{% macro redshift__bit_count(value) -%}
{%- endmacro %}

{% macro spark__bit_count(value) -%}
    bit_count({{ value }})
{%- endmacro %}
