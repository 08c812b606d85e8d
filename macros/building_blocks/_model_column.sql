{#- A column of predictions named as a model's would be (model, variant, run, …) and read as
    nothing (`used`: the user, item, rank or score and by columns), or '' when there is none.
    Python then asks _users_with_two_values whether it splits a user's rows: if so, by= was most
    likely forgotten, and each user's lists from every model are read as one list. -#}
{% macro _model_like_column(predictions_columns, used) -%}
    {%- set model_names = ['model', 'models', 'model_id', 'model_name', 'model_version', 'variant', 'variant_id',
                           'algorithm', 'algo', 'experiment', 'experiment_id', 'arm', 'system', 'system_id', 'run',
                           'run_id', 'run_name', 'recommender', 'ranker', 'retriever', 'candidate_source'] -%}
    {%- set found = [] -%}
    {%- for column in predictions_columns or [] if column.name not in used and (column.name | lower) in model_names -%}
        {%- do found.append(column.name) -%}
    {%- endfor -%}
    {{- found | first if found else '' -}}
{%- endmacro %}


{#- The least user (rm_user) whose rows hold two or more values of `column` (both quoted), NULL
    when none does (the least, so that the warning names the same user on every run): an A/B
    test's arm, one per user, splits no list; a model column left out of by does. -#}
{% macro _users_with_two_values(relation, user, column) -%}
select min(rm_user) as rm_user
from (
    select {{ user }} as rm_user
    from {{ relation }} as rm_r
    group by {{ user }}
    having count(distinct {{ column }}) > 1
) as rm_split
{%- endmacro %}
