{#- The dbt side of beyond_accuracy (macros/dbt/entry_points.sql): the arguments resolved and the
    columns looked up by the macros' own rules, the rows checked with one query when the model
    runs (train without rows, NULL ids, a listed or history item without a usable feature
    vector: a compile error naming it, never a number computed without it), the data's shape
    warned of as evaluate's is (lists merged, a row twice, ids with a space at an end), then
    the query; with `compare`, compare_beyond_accuracy's (its own arguments taken first). -#}
{% macro _beyond_accuracy_dbt(predictions, train, k, options, per_user, compare=false) %}
    {%- set comparison = {} -%}
    {%- if compare -%}
        {%- do rank_metrics._comparison_options(comparison, options, 'compare_beyond_accuracy') -%}
        {%- set options = comparison.rest -%}
    {%- endif -%}
    {%- set given = dict(options, k=k) -%}
    {%- set resolved = {} -%}
    {%- do rank_metrics._beyond_accuracy_arguments(given, resolved) -%}
    {%- set inputs = {'predictions': predictions, 'train': train, 'truth': options.get('truth'), 'item_features': options.get('item_features')} -%}
    {%- set columns = {} -%}
    {%- for name, relation in inputs.items() if relation is not none -%}
        {%- do columns.update({name: rank_metrics._relation_columns(relation, name)}) -%}
    {%- endfor -%}
    {%- set found = {} -%}
    {%- do rank_metrics._beyond_accuracy_columns(resolved, columns, found) -%}
    {%- if found.unread_grade and execute -%}
        {%- set where = " (" ~ model.name ~ ")" if model is defined and model is mapping and model.get('name') else "" -%}
        {%- do exceptions.warn("rank_metrics" ~ where ~ ": " ~ rank_metrics._unread_grade_message(columns.truth, found.unread_grade, found.unread_grade,
                                                                                                 found.shapes.truth.list) | trim) -%}
    {%- endif -%}
    {%- if compare %}{% do rank_metrics._beyond_accuracy_comparison(resolved, found, comparison) %}
    {%- elif per_user %}{% do rank_metrics._per_user_metrics_asked(resolved, "beyond_accuracy_users gives the users' values") %}{% endif -%}
    {#- the rows' checks read the inputs, so they run only when the model runs (never at parse,
        compile, docs or under --empty, whose refs read no rows: "train has no rows"), and only
        when every input can be queried on its own (a ref or source, not a CTE's name), as
        _dbt_arguments' do -#}
    {%- set unqueryable = [] -%}
    {%- for relation in inputs.values() if relation is not none and not rank_metrics._queryable(relation) %}{% do unqueryable.append(relation) %}{% endfor -%}
    {#- under --empty a ref renders as a subquery with dbt's own alias, which takes no second one
        on PostgreSQL (`… limit 0) _dbt_limit_subq_x as rm_p`): read through one more subquery -#}
    {%- set aliased = {} -%}
    {%- for name, relation in inputs.items() %}{% do aliased.update({name: rank_metrics._aliasable(relation) if relation is not none else none}) %}{% endfor -%}
    {%- if rank_metrics._data_checks_run() and not unqueryable -%}
        {%- set problems = run_query(rank_metrics._beyond_accuracy_problems(aliased.predictions, aliased.train, resolved, found, truth=aliased.truth,
                                                                            item_features=aliased.item_features,
                                                                            comparison=comparison if compare else none)) -%}
        {%- if problems is not none and problems.rows | length -%}
            {%- do exceptions.raise_compiler_error("rank_metrics: " ~ problems.rows[0][0]) -%}
        {%- endif -%}
    {%- endif -%}
    {#- the accuracy metrics' warnings of lists merged, rows twice and ids with a space at an end -#}
    {%- if not found.shapes.predictions.list and rank_metrics._data_checks_run() and rank_metrics._queryable(predictions)
          and rank_metrics._queryable(train) -%}
        {%- set plan = {} -%}
        {%- do rank_metrics._beyond_accuracy_shape_plan(resolved, found, aliased.predictions, aliased.train, plan) -%}
        {%- do rank_metrics._shape_warnings_of_plan(plan, aliased.predictions, columns.predictions, columns.train, other='train') -%}
    {%- endif -%}
    {{ return(rank_metrics._beyond_accuracy_query(aliased.predictions, aliased.train, resolved.ks, resolved.metrics, resolved.by, resolved.user, resolved.item,
                                                 found.order, found.descending, resolved.train_user, resolved.train_item,
                                                 truth=aliased.truth, truth_user=resolved.truth_user, truth_item=resolved.truth_item,
                                                 item_features=aliased.item_features, features_item=resolved.features_item,
                                                 feature_columns=found.features, similarity=resolved.similarity,
                                                 item_is_text=found.item_is_text, per_user=per_user, shapes=found.shapes,
                                                 comparison=comparison if compare else none, order_type=found.order_type,
                                                 relevance=found.relevance)) }}
{% endmacro %}
