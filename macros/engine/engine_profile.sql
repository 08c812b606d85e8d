{#- What each engine has, in one place: the plan, the dbt layer and Python's dispatch ask this
    rather than guess from rendered text or branch on adapter.type(). engine_profile(key) is the
    value of one key as text ('' for no):
    - parent: the adapter whose variants dispatch tries next, before default__ (dbt-redshift's
      and dbt-databricks' own parents; Python's dispatch reads it too);
    - bit_count: the engine counts the 1 bits of a 64-bit integer (bit_count renders something),
      so hit positions can be one word (hit patterns, AP's running count of hits, k <= 61);
    - catalog_columns: dbt's get_columns_in_relation misses materialized views and calls every
      array ARRAY (dbt-postgres): columns are read from the catalog instead;
    - view_text_limit: the longest view text the engine keeps (Spark's Hive metastore: 32,700
      characters), or '' for no limit;
    - identifier_case: the case an unquoted name is stored in: upper (Snowflake), lower, or ''
      (as written: DuckDB's and Spark's names match in any case, PostgreSQL's quoted as spelt);
    - ctes_once: a CTE read in several places is computed once (DuckDB, PostgreSQL), where
      other engines inline it at every reference (Spark, BigQuery, Trino), so that a plan of
      several steps through one CTE is cheap there only (beyond accuracy's list positions).
    Adding an engine: its profile here, the variants its SQL needs, one test target. -#}
{% macro _profile(key, overrides) -%}
    {%- set defaults = {'parent': '', 'bit_count': '', 'catalog_columns': '', 'view_text_limit': '', 'identifier_case': '', 'ctes_once': ''} -%}
    {%- if key not in defaults -%}
        {{ exceptions.raise_compiler_error("rank_metrics: engine_profile has no key " ~ key ~ "; its keys: " ~ defaults.keys() | join(', ')) }}
    {%- endif -%}
    {{- dict(defaults, **overrides)[key] -}}
{%- endmacro %}

{% macro default__engine_profile(key) -%}{{ rank_metrics._profile(key, {}) }}{%- endmacro %}

{% macro duckdb__engine_profile(key) -%}{{ rank_metrics._profile(key, {'bit_count': 'true', 'ctes_once': 'true'}) }}{%- endmacro %}

{% macro postgres__engine_profile(key) -%}
    {{- rank_metrics._profile(key, {'bit_count': 'true', 'catalog_columns': 'true', 'identifier_case': 'lower', 'ctes_once': 'true'}) -}}
{%- endmacro %}

{#- Redshift has neither bit_count nor bit strings. -#}
{% macro redshift__engine_profile(key) -%}
    {{- rank_metrics._profile(key, {'parent': 'postgres', 'identifier_case': 'lower'}) -}}
{%- endmacro %}

{% macro spark__engine_profile(key) -%}
    {{- rank_metrics._profile(key, {'bit_count': 'true', 'view_text_limit': '32700'}) -}}
{%- endmacro %}

{#- Databricks keeps a view's text in Unity Catalog, with no such limit. -#}
{% macro databricks__engine_profile(key) -%}
    {{- rank_metrics._profile(key, {'parent': 'spark', 'bit_count': 'true', 'identifier_case': 'lower'}) -}}
{%- endmacro %}

{% macro snowflake__engine_profile(key) -%}{{ rank_metrics._profile(key, {'identifier_case': 'upper'}) }}{%- endmacro %}

{% macro bigquery__engine_profile(key) -%}{{ rank_metrics._profile(key, {'identifier_case': 'lower'}) }}{%- endmacro %}

{% macro trino__engine_profile(key) -%}{{ rank_metrics._profile(key, {'identifier_case': 'lower'}) }}{%- endmacro %}
