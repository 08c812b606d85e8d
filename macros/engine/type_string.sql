{#- The text type, for values cast into error messages. -#}
{% macro default__type_string() -%}
    varchar
{%- endmacro %}
