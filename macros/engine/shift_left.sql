{#- value shifted left by bits (both SQL expressions): value * 2^bits for integers. -#}
{% macro default__shift_left(value, bits) -%}
    ({{ value }} << {{ bits }})
{%- endmacro %}

{#- Spark has the function, not (before 4.0) the operator. -#}
{% macro spark__shift_left(value, bits) -%}
    shiftleft({{ value }}, {{ bits }})
{%- endmacro %}

{#- Snowflake and Trino have the function, not the operator. -#}
{% macro snowflake__shift_left(value, bits) -%}
    bitshiftleft({{ value }}, {{ bits }})
{%- endmacro %}

{% macro trino__shift_left(value, bits) -%}
    bitwise_left_shift({{ value }}, {{ bits }})
{%- endmacro %}

{#- The bitwise or of an integer column's values, an aggregate. -#}
{% macro default__bit_or(value) -%}
    bit_or({{ value }})
{%- endmacro %}

{% macro snowflake__bit_or(value) -%}
    bitor_agg({{ value }})
{%- endmacro %}

{% macro trino__bit_or(value) -%}
    bitwise_or_agg({{ value }})
{%- endmacro %}
