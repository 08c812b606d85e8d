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


{#- For predictions' text item ids against a CSV file's item ids read as text to match them
    (H&M's article ids, 0108775015 on both sides): a predicted item and a truth item that are one
    number written two ways (010 and 10, 7.0 and 7), which as text never meet; no row when none.
    A list column's items are its elements. In DuckDB's SQL: only DuckDB reads files. -#}
{% macro _one_number_spelt_two_ways(predictions, truth, item, truth_item, items_are_lists) %}
{%- set predicted = 'unnest(' ~ rank_metrics.quote_identifier(item) ~ ')' if items_are_lists else rank_metrics.quote_identifier(item) -%}
select p.rm_item as rm_predicted, t.rm_item as rm_judged
from (select distinct cast({{ predicted }} as varchar) as rm_item from {{ predictions }}) as p
inner join (select distinct cast({{ rank_metrics.quote_identifier(truth_item) }} as varchar) as rm_item from {{ truth }}) as t
    on try_cast(p.rm_item as decimal(38, 9)) = try_cast(t.rm_item as decimal(38, 9))
    and p.rm_item <> t.rm_item
order by p.rm_item, t.rm_item
limit 1
{%- endmacro %}
