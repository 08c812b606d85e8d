{#- A column or table name as the SQL names it, never pasted as text. -#}

{#- DuckDB and PostgreSQL (and the default): double quotes, any double quote inside doubled. -#}
{% macro default__quote_identifier(name) -%}
    {{- rank_metrics._refuse_nul_in_name(name) -}}
    "{{ name | string | replace('"', '""') }}"
{%- endmacro %}

{#- No engine's identifier holds a NUL: DuckDB cut the name there, and the result's column was
    another name than the one asked for (a raw KeyError). -#}
{% macro _refuse_nul_in_name(name) -%}
    {%- if '\x00' in name | string -%}
        {{ exceptions.raise_compiler_error("rank_metrics: the name that begins " ~ rank_metrics._shown((name | string).split('\x00')[0]) ~ " holds a NUL character (\\x00), which no SQL name can hold: rename the column or table") }}
    {%- endif -%}
{%- endmacro %}

{#- Spark SQL quotes identifiers with backticks, any backtick inside doubled. -#}
{% macro spark__quote_identifier(name) -%}
    {{- rank_metrics._refuse_nul_in_name(name) -}}
    `{{ name | string | replace('`', '``') }}`
{%- endmacro %}

{#- The warehouses that fold unquoted names (rank_metrics.sql prints their SQL; dbt-redshift and
    dbt-databricks use it too). Snowflake stores an unquoted name in upper case, so a quoted
    "user_id" misses the column of `create table recs (user_id ...)`. A plain lower-case name
    (letters, digits, _) is therefore left unquoted and resolves as the warehouse resolves its
    own tables; every other name is quoted and matched exactly. A plain name that is an SQL
    keyword must be quoted: in the case the warehouse stores it in. -#}
{% macro snowflake__quote_identifier(name) -%}
    {{ rank_metrics._folded_identifier(name, 'upper', '"') }}
{%- endmacro %}

{#- BigQuery's column names are case-insensitive, and quoted in backticks ("…" is a string there). A
    backtick inside is written \` (BigQuery has no doubled quote). -#}
{% macro bigquery__quote_identifier(name) -%}
    {{- rank_metrics._refuse_nul_in_name(name) -}}
    {{ rank_metrics._folded_identifier(name | string | replace('\\', '\\\\') | replace('`', '\\`'), 'lower', '`', doubled=false) }}
{%- endmacro %}

{#- Trino and Redshift fold every name to lower case, quoted or not. -#}
{% macro trino__quote_identifier(name) -%}
    {{ rank_metrics._folded_identifier(name, 'lower', '"') }}
{%- endmacro %}

{% macro redshift__quote_identifier(name) -%}
    {{ rank_metrics._folded_identifier(name, 'lower', '"') }}
{%- endmacro %}

{#- Databricks: backticks, names case-insensitive. -#}
{% macro databricks__quote_identifier(name) -%}
    {{ rank_metrics._folded_identifier(name, 'lower', '`') }}
{%- endmacro %}

{#- A plain lower-case name unquoted, a plain keyword quoted in the stored case, anything else
    quoted exactly as given (the quote character inside doubled). -#}
{% macro _folded_identifier(name, stored_case, quote, doubled=true) -%}
    {%- set text = name | string -%}
    {%- set plain = text | length > 0 and text[0] in 'abcdefghijklmnopqrstuvwxyz_'
                    and text | reject('in', 'abcdefghijklmnopqrstuvwxyz0123456789_') | list | length == 0 -%}
    {%- if plain and text not in (rank_metrics._sql_keywords() | trim).split(' ') -%}
        {{ text }}
    {%- else -%}
        {%- set stored = (text | upper if stored_case == 'upper' else text) if plain else text -%}
        {{ quote }}{{ stored | replace(quote, quote ~ quote) if doubled else stored }}{{ quote }}
    {%- endif -%}
{%- endmacro %}

{#- Words that the warehouses reserve or parse as syntax, which a column name must not be
    unquoted (the union of their lists, lower case, one line). -#}
{% macro _sql_keywords() -%}
all alter and any array as asc assert_rows_modified at between both by case cast check collate column connect constraint contains create cross cube current current_date current_time current_timestamp current_user default define delete desc describe distinct drop else end enum escape except exclude exists extract false fetch following for foreign from full grant group grouping groups hash having ignore ilike in increment inner insert intersect interval into is join lateral leading left level like limit localtime localtimestamp lookup merge minus natural new no not null nulls of on or order outer over partition preceding primary proto qualify range rank recursive references regexp respect revoke right rlike rollup row rows sample select set some start struct table tablesample then to trailing treat trigger true try_cast unbounded union unique unnest update user using values when where window with within
{%- endmacro %}

{#- A column's name as the SQL names it, from the name the engine stores. Where unquoted names are
    stored in upper case (engine_profile's identifier_case: Snowflake), a plain upper-case column
    (CUSTOMER_ID, as a seed or an unquoted `create table` makes it) is customer_id to the user's
    own SQL, and to the package's, which writes it unquoted (_folded_identifier) for the engine to
    fold back. A name stored in another case was quoted when made, and stays as it is. -#}
{% macro default__column_as_named(stored) -%}
    {%- set text = stored | string -%}
    {%- set plain = text | length > 0 and text[0] in 'ABCDEFGHIJKLMNOPQRSTUVWXYZ_'
                    and text | reject('in', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_') | list | length == 0 -%}
    {{ text | lower if plain and rank_metrics.engine_profile('identifier_case') | trim == 'upper' else text }}
{%- endmacro %}
