{#- dbt-only: what Python does before rendering, done the dbt way. Looks up the columns of
    relations (so rank/score, relevance and truth_by resolve and missing columns are named), and
    when the model runs, rejects bad data with the input_problems query before any metric is
    computed. Returns the keyword arguments of the core macros. -#}
{% macro _dbt_arguments(predictions, truth, k, user, item, rank, score, relevance, by, truth_by,
                        normalization, users, duplicates, tie_break, convention, validate) %}
    {%- set arguments = {
        'predictions': predictions, 'truth': truth, 'k': k, 'user': user, 'item': item,
        'rank': rank, 'score': score, 'relevance': relevance, 'by': by, 'truth_by': truth_by,
        'normalization': normalization, 'users': users, 'duplicates': duplicates,
        'tie_break': tie_break, 'convention': convention,
        'predictions_columns': rank_metrics._relation_columns(predictions),
        'truth_columns': rank_metrics._relation_columns(truth),
    } -%}
    {%- if execute and validate -%}
        {%- set problems = run_query(adapter.dispatch('input_problems', 'rank_metrics')(**arguments)) -%}
        {%- for row in problems.rows -%}
            {%- do exceptions.raise_compiler_error("rank_metrics: " ~ row[0] ~ ": " ~ row[1]) -%}
        {%- endfor -%}
    {%- endif -%}
    {{ return(arguments) }}
{% endmacro %}

{#- The columns (name, data_type) of a relation, or none for anything else (a CTE name, SQL
    text) and at parse time, when nothing can be looked up. -#}
{% macro _relation_columns(relation) %}
    {%- if execute and relation is mapping and relation.get('metadata', {}).get('type', '').endswith('Relation') -%}
        {{ return(adapter.get_columns_in_relation(relation)) }}
    {%- endif -%}
    {{ return(none) }}
{% endmacro %}
