{#- value shifted left by bits (both SQL expressions): value * 2^bits for integers. -#}
{% macro default__shift_left(value, bits) -%}
    ({{ value }} << {{ bits }})
{%- endmacro %}

{#- Spark has the function, not (before 4.0) the operator. -#}
{% macro spark__shift_left(value, bits) -%}
    shiftleft({{ value }}, {{ bits }})
{%- endmacro %}
