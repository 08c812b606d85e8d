{#- Small renderers for lists of already-quoted columns, so the metric SQL reads as SQL. -#}

{#- `a."x", a."y", ` — a select-list prefix (empty for no columns). -#}
{% macro _column_prefix(columns, alias=none) -%}
    {%- for column in columns -%}{{ alias ~ '.' if alias }}{{ column }}, {% endfor -%}
{%- endmacro %}

{#- `a."x" = b."x" and ` — join conditions on equal columns (empty for no columns). -#}
{% macro _equal_prefix(columns, left, right) -%}
    {%- for column in columns -%}{{ left }}.{{ column }} = {{ right }}.{{ column }} and {% endfor -%}
{%- endmacro %}
