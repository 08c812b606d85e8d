{#- Small renderers for lists of already-quoted columns, so the metric SQL reads as SQL. -#}

{#- `a."x", a."y", ` — a select-list prefix (empty for no columns). -#}
{% macro _column_prefix(columns, alias=none) -%}
    {%- for column in columns -%}{{ alias ~ '.' if alias }}{{ column }}, {% endfor -%}
{%- endmacro %}

{#- `a."x" = b."x" and ` — join conditions on equal columns (empty for no columns). -#}
{% macro _equal_prefix(columns, left, right) -%}
    {%- for column in columns -%}{{ left }}.{{ column }} = {{ right }}.{{ column }} and {% endfor -%}
{%- endmacro %}

{#- `over (...)` of a window per group of the by `columns`; with none, over every row: one
    partition (_one_partition) when `positive_column` is given, else `over ()`. -#}
{% macro _over_groups(columns, positive_column=none) -%}
    over ({{ 'partition by ' ~ columns | join(', ') if columns else (rank_metrics._one_partition(positive_column) if positive_column else '') }})
{%- endmacro %}

{#- `partition by sign(x)` for a window over a handful of rows that all belong together, x being
    a column that is at least 1 in every row: Spark drops an empty or constant partition and then
    warns, for every such window, that it moves all rows to one partition. -#}
{% macro _one_partition(positive_column) -%}
    partition by sign({{ positive_column }})
{%- endmacro %}

{#- `"a", cast("b" as varchar) as "b"` — a relation's columns with those in `as_text` cast to text
    (Python's DuckDB results: ids pandas would make float64 leave as text, made whole there). -#}
{% macro _columns_with_text(columns, as_text) -%}
    {%- for column in columns -%}
        {%- set quoted = rank_metrics.quote_identifier(column) -%}
        {{ 'cast(' ~ quoted ~ ' as ' ~ rank_metrics.type_string() ~ ') as ' ~ quoted if column in as_text else quoted }}{{ ', ' if not loop.last }}
    {%- endfor -%}
{%- endmacro %}
