{#- For a text id column of an input read by DuckDB, facing a file whose ids its CSV reader took
    for numbers: how many values are not numbers (guest) and how many are digits with a leading
    zero (007). Only the first makes the file's ids text: 007 as text would not meet the file's 7,
    and a type error says more than a metric of 0. In DuckDB's SQL (try_cast, regexp_full_match):
    only DuckDB reads files. -#}
{% macro _text_id_kinds(relation, column) %}
select count(case when try_cast({{ rank_metrics.quote_identifier(column) }} as double) is null then 1 end) as rm_not_numbers,
    count(case when regexp_full_match({{ rank_metrics.quote_identifier(column) }}, '-?0[0-9]+') then 1 end) as rm_padded
from {{ relation }} as rm_t
where {{ rank_metrics.quote_identifier(column) }} is not null
{%- endmacro %}
