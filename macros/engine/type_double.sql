{#- The 8-byte floating point type, so that every division is floating point. -#}
{% macro default__type_double() -%}
    double
{%- endmacro %}

{#- PostgreSQL has no type named double: double precision. -#}
{% macro postgres__type_double() -%}
    double precision
{%- endmacro %}
