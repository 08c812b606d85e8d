{#- The 8-byte floating point type, so that every division is floating point. -#}
{% macro default__type_double() -%}
    double
{%- endmacro %}

{#- PostgreSQL has no type named double: double precision. -#}
{% macro postgres__type_double() -%}
    double precision
{%- endmacro %}

{#- BigQuery's floating point type is FLOAT64 (no DOUBLE). -#}
{% macro bigquery__type_double() -%}
    float64
{%- endmacro %}
