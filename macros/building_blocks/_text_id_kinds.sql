{#- For a text id column of an input read by DuckDB, facing a file whose ids its CSV reader took
    for numbers: how many values look like numbers written otherwise than a whole number is
    (007, 7.0, 1e3, ' 7'). Words (guest) and plain whole numbers (7) meet the file's ids read as
    text; those would silently not (007 is not 7), so then the type error stays. In DuckDB's SQL
    (try_cast, regexp_full_match): only DuckDB reads files. -#}
{% macro _text_id_kinds(relation, column) %}
{%- set value = rank_metrics.quote_identifier(column) -%}
select count(case when try_cast({{ value }} as double) is not null
                   and not regexp_full_match({{ value }}, '-?(0|[1-9][0-9]*)') then 1 end) as rm_unlike_whole_numbers
from {{ relation }} as rm_t
{%- endmacro %}
