{#- The text type, for values cast into error messages. -#}
{% macro default__type_string() -%}
    varchar
{%- endmacro %}

{#- Spark's varchar needs a length; string has none. -#}
{% macro spark__type_string() -%}
    string
{%- endmacro %}

{% macro bigquery__type_string() -%}
    string
{%- endmacro %}
