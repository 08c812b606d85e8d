{#- dbt-only dispatchers of the engine helpers in macros/engine/ (Python's renderer picks the
    same <engine>__ or default__ variant itself). -#}
{% macro quote_identifier(name) %}{{ return(adapter.dispatch('quote_identifier', 'rank_metrics')(name)) }}{% endmacro %}
{% macro type_double() %}{{ return(adapter.dispatch('type_double', 'rank_metrics')()) }}{% endmacro %}
{% macro type_string() %}{{ return(adapter.dispatch('type_string', 'rank_metrics')()) }}{% endmacro %}
{% macro string_literal(text) %}{{ return(adapter.dispatch('string_literal', 'rank_metrics')(text)) }}{% endmacro %}
{% macro untyped_string_literal(text) %}{{ return(adapter.dispatch('untyped_string_literal', 'rank_metrics')(text)) }}{% endmacro %}
{% macro shift_left(value, bits) %}{{ return(adapter.dispatch('shift_left', 'rank_metrics')(value, bits)) }}{% endmacro %}
{% macro unnest_list(relation, keep, item, separator, position) %}{{ return(adapter.dispatch('unnest_list', 'rank_metrics')(relation, keep, item, separator, position)) }}{% endmacro %}
{% macro ranks_are_positions(rank, whole_rank, cut) %}{{ return(adapter.dispatch('ranks_are_positions', 'rank_metrics')(rank, whole_rank, cut)) }}{% endmacro %}
{% macro ranks_are_positions_in_one_word(rank, whole_rank, cut) %}{{ return(adapter.dispatch('ranks_are_positions_in_one_word', 'rank_metrics')(rank, whole_rank, cut)) }}{% endmacro %}
{% macro bit_count(value) %}{{ return(adapter.dispatch('bit_count', 'rank_metrics')(value)) }}{% endmacro %}
{% macro truth_by_user_hint() %}{{ return(adapter.dispatch('truth_by_user_hint', 'rank_metrics')()) }}{% endmacro %}
{% macro lists_truth_knows(plan, alias) %}{{ return(adapter.dispatch('lists_truth_knows', 'rank_metrics')(plan, alias)) }}{% endmacro %}
{% macro nested_list_problem(plan, table, relation, item, number) %}{{ return(adapter.dispatch('nested_list_problem', 'rank_metrics')(plan, table, relation, item, number)) }}{% endmacro %}
{% macro renumbered_rows(plan, cut) %}{{ return(adapter.dispatch('renumbered_rows', 'rank_metrics')(plan, cut)) }}{% endmacro %}
{% macro candidate_hits(plan, truth_rows, cut) %}{{ return(adapter.dispatch('candidate_hits', 'rank_metrics')(plan, truth_rows, cut)) }}{% endmacro %}
{% macro lists_in_order(plan, alias) %}{{ return(adapter.dispatch('lists_in_order', 'rank_metrics')(plan, alias)) }}{% endmacro %}
{% macro metric_rows(plan) %}{{ return(adapter.dispatch('metric_rows', 'rank_metrics')(plan)) }}{% endmacro %}
{% macro mean(column) %}{{ return(adapter.dispatch('mean', 'rank_metrics')(column)) }}{% endmacro %}
{% macro weighted_mean(value, weight, over=none) %}{{ return(adapter.dispatch('weighted_mean', 'rank_metrics')(value, weight, over)) }}{% endmacro %}
{% macro sum_of_values(expression, over=none, any_size=false, compact=false) %}{{ return(adapter.dispatch('sum_of_values', 'rank_metrics')(expression, over, any_size, compact)) }}{% endmacro %}
{% macro text_id_collation_problem(relation, column, name, table, argument, number) %}{{ return(adapter.dispatch('text_id_collation_problem', 'rank_metrics')(relation, column, name, table, argument, number)) }}{% endmacro %}
{% macro text_in_byte_order(expression) %}{{ return(adapter.dispatch('text_in_byte_order', 'rank_metrics')(expression)) }}{% endmacro %}
{% macro not_a_finite_number(expression, data_type) %}{{ return(adapter.dispatch('not_a_finite_number', 'rank_metrics')(expression, data_type)) }}{% endmacro %}
{% macro column_as_named(stored) %}{{ return(adapter.dispatch('column_as_named', 'rank_metrics')(stored)) }}{% endmacro %}
{% macro days_after(timestamp, days) %}{{ return(adapter.dispatch('days_after', 'rank_metrics')(timestamp, days)) }}{% endmacro %}
{% macro bit_or(value) %}{{ return(adapter.dispatch('bit_or', 'rank_metrics')(value)) }}{% endmacro %}
{% macro engine_profile(key) %}{{ return(adapter.dispatch('engine_profile', 'rank_metrics')(key)) }}{% endmacro %}
