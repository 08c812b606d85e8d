{#- Text as an SQL string literal that reads the same whatever the session's settings (SPEC §4).
    default__: any single quote inside doubled, as standard SQL reads it. -#}
{% macro default__string_literal(text) -%}
    '{{ text | string | replace("'", "''") }}'
{%- endmacro %}

{#- PostgreSQL with standard_conforming_strings off reads a backslash in '…' as an escape, so
    'x\'' would end elsewhere than it seems (a table name broke out of its literal and dropped a
    table, issue 40): quotes and backslashes are written as chr(), the rest as plain literals,
    which read alike under either setting. Its text holds no NUL: that is said, not sent. -#}
{% macro postgres__string_literal(text) -%}
    {%- set text = text | string -%}
    {%- if '\x00' in text -%}
        {{ exceptions.raise_compiler_error("rank_metrics: the text " ~ rank_metrics._shown(text) ~ " holds a NUL character (\\x00), which PostgreSQL text cannot hold") }}
    {%- endif -%}
    {{- rank_metrics._literal_with_chr(text, {"'": 39, '\\': 92}) -}}
{%- endmacro %}

{#- A text literal of no type yet, which takes the type of what it meets: a PostgreSQL enum's
    label ('a' = an enum column), where string_literal's chr() pieces are text, which no enum
    equals (operator does not exist: enum = text; a user's trial). An escape string, E'…', reads
    alike under any standard_conforming_strings: a quote doubled, a backslash doubled. The other
    engines have no such type: their string_literal. -#}
{% macro default__untyped_string_literal(text) -%}
    {{- rank_metrics.string_literal(text) -}}
{%- endmacro %}

{% macro postgres__untyped_string_literal(text) -%}
    {%- set text = text | string -%}
    {%- if '\x00' in text -%}
        {{ exceptions.raise_compiler_error("rank_metrics: the text " ~ rank_metrics._shown(text) ~ " holds a NUL character (\\x00), which PostgreSQL text cannot hold") }}
    {%- endif -%}
    E'{{ text | replace('\\', '\\\\') | replace("'", "''") }}'
{%- endmacro %}

{#- Snowflake reads a backslash in '…' as an escape, always ('\r' is a carriage return): quotes
    and backslashes as chr(), as on PostgreSQL (a baseline spelt with a backslash met no model on
    dbt-snowflake). -#}
{% macro snowflake__string_literal(text) -%}
    {{- rank_metrics._literal_with_chr(text | string, {"'": 39, '\\': 92}) -}}
{%- endmacro %}

{#- `text` between single quotes when it holds none of `specials` (the common case, and SQL as
    before), else in parts with each special character as chr(its code) (_text_as_parts). -#}
{% macro _literal_with_chr(text, specials) -%}
    {%- if specials | select('in', text) | list -%}{{ rank_metrics._text_as_parts(text, specials) }}
    {%- else -%}'{{ text }}'
    {%- endif -%}
{%- endmacro %}

{#- Spark reads '' as two adjacent literals, not a quote, and reads a backslash as an escape, or
    not, by spark.sql.parser.escapedStringLiterals; it also replaces ${…} in the query text by
    spark.sql.variable.substitute. So quotes, backslashes and dollars are written as chr(). -#}
{% macro spark__string_literal(text) -%}
    {{- rank_metrics._literal_with_chr(text | string, {"'": 39, '\\': 92, '$': 36}) -}}
{%- endmacro %}

{#- BigQuery reads a backslash in '…' as an escape, always, and has no doubled quote: backslashes
    and quotes are escaped with one, and line breaks and tabs written as escapes (a '…' literal
    may not span lines). -#}
{% macro bigquery__string_literal(text) -%}
    '{{ text | string | replace('\\', '\\\\') | replace("'", "\\'") | replace('\n', '\\n') | replace('\r', '\\r') | replace('\t', '\\t') }}'
{%- endmacro %}
