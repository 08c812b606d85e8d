{#- Queries of the data's shape, for warnings of a plausible wrong number (Python runs them
    where the column types call for one). -#}

{#- The least and greatest value of one column (quoted) of a relation: a rank column whose
    values all lie between 0 and 1 is most likely a score. -#}
{% macro _value_range(relation, column) -%}
select min({{ column }}) as rm_least, max({{ column }}) as rm_greatest
from {{ relation }} as rm_r
{%- endmacro %}
