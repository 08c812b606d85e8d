{#- A problem row (see input_problems) when a text id column compares without case or accents
    ('A' = 'a', 'é' = 'e'), or nothing. Such a column's type says only VARCHAR or text: a DuckDB
    column declared COLLATE NOCASE or NOACCENT, DuckDB's default_collation, a PostgreSQL column
    of a nondeterministic collation. Two users 'U' and 'u' were then one, and MAP 2.0 (a new
    user's trial). A CASE whose one branch is the column carries the column's collation, so
    comparing its other branch, a constant, tests the collation on a single row. Engines whose
    types name such collations (Spark's UTF8_LCASE) are checked from the type (_plan). -#}
{% macro default__text_id_collation_problem(relation, column, name, table, argument, number) -%}
{%- endmacro %}

{% macro duckdb__text_id_collation_problem(relation, column, name, table, argument, number) -%}
{{ rank_metrics._text_id_collation_probe(relation, column, name, table, argument, number, name ~ ' COLLATE c') }}
{%- endmacro %}

{% macro postgres__text_id_collation_problem(relation, column, name, table, argument, number) -%}
{{ rank_metrics._text_id_collation_probe(relation, column, name, table, argument, number, name ~ ' COLLATE "C"') }}
{%- endmacro %}

{#- dbt-redshift dispatches to postgres__ next; Redshift's own collations are named so -#}
{% macro redshift__text_id_collation_problem(relation, column, name, table, argument, number) -%}
{{ rank_metrics._text_id_collation_probe(relation, column, name, table, argument, number, "COLLATE(" ~ name ~ ", 'case_sensitive')") }}
{%- endmacro %}

{% macro _text_id_collation_probe(relation, column, name, table, argument, number, exact) -%}
union all
select {{ number }} as rm_check, {{ rank_metrics.string_literal(argument) }} as argument,
    {{ rank_metrics.string_literal('column ' ~ name ~ ' of ' ~ table ~ " compares text without case or accents ('A' = 'a' or 'é' = 'e', by its collation "
        ~ "or the connection's default), where ids are compared exactly: give it a collation that compares exactly (" ~ exact ~ ")") }} as problem
from (
    select {{ column }} as rm_id
    from {{ relation }} as rm_c
    limit 1
) as rm_one
where (case when false then rm_id else 'A' end) = 'a' or (case when false then rm_id else 'é' end) = 'e'
{%- endmacro %}
