{#- dbt-only: what Python does before rendering, done the dbt way, for every public macro.
    Looks up the columns of relations (so rank/score, relevance and
    truth_by resolve and missing columns are named), runs the data checks (input_problems) when
    the model itself runs, and returns the keyword arguments of the SQL macro (each entry point
    dispatches its own: dbt reads dispatch names from the source, so they must be literals). -#}
{% macro _dbt_arguments(predictions, truth, k, options, by_position=[]) %}
    {#- the entry points pass what came by position after k (Jinja's varargs), which dbt would
        otherwise refuse in words of its own: "takes not more than 3 argument(s)" -#}
    {%- if by_position | length > 0 -%}
        {%- do exceptions.raise_compiler_error("rank_metrics: only predictions, truth and k are given by position; every other argument by name (user='user_id', rank='rank', by='model', …): "
            ~ (by_position | length) ~ " more by position: " ~ rank_metrics._shown(by_position | list)) -%}
    {%- endif -%}
    {#- left out, each would be pasted into the SQL as nothing (`from  as rm_t`) -#}
    {%- for name, value, example in [('predictions', predictions, "predictions=ref('recs')"), ('truth', truth, "truth=ref('purchases')"),
                                     ('k', k, 'k=12 or k=[5, 10, 20]')] -%}
        {%- if value is not defined or value is none or (value is string and value | trim == '') -%}
            {%- do exceptions.raise_compiler_error("rank_metrics: " ~ name ~ " is required (" ~ example ~ ")") -%}
        {%- endif -%}
    {%- endfor -%}
    {#- relevance=none given says truth has no grades, whatever its columns (README), where left
        out a column named relevance is read: the macros' relevance=false -#}
    {%- set options = dict(options, relevance=false) if 'relevance' in options and options.relevance is none else options -%}
    {%- set arguments = dict(options, predictions=predictions, truth=truth, k=k,
                             predictions_columns=rank_metrics._relation_columns(predictions, 'predictions'),
                             truth_columns=rank_metrics._relation_columns(truth, 'truth')) -%}
    {%- set queryable = {'predictions': predictions, 'truth': truth} -%}
    {%- for name in ['predictions', 'truth'] -%}
        {%- do arguments.update({name: rank_metrics._aliasable(arguments[name])}) -%}
    {%- endfor -%}
    {%- set validate = arguments.pop('validate', true) -%}
    {%- if validate and execute -%}
        {%- do rank_metrics._input_warnings(arguments, options) -%}
    {%- endif -%}
    {%- set checked = [] -%}
    {%- for name in ['predictions', 'truth'] if arguments[name ~ '_columns'] is not none and rank_metrics._queryable(queryable[name]) -%}{%- do checked.append(name) -%}{%- endfor -%}
    {%- if validate and checked and rank_metrics._data_checks_run() -%}
        {%- set problems = run_query(adapter.dispatch('input_problems', 'rank_metrics')(**dict(arguments, checked_tables=checked))) -%}
        {%- for row in problems.rows -%}
            {%- do exceptions.raise_compiler_error("rank_metrics: " ~ row[0] ~ ": " ~ row[1]) -%}
        {%- endfor -%}
    {%- endif -%}
    {%- if validate and checked | length == 2 and rank_metrics._data_checks_run() -%}
        {%- do rank_metrics._shape_warnings(arguments) -%}
    {%- endif -%}
    {{ return(arguments) }}
{% endmacro %}

{#- dbt's warnings (exceptions.warn: in the log, an error under --warn-error) for what Python
    warns of or cannot meet, where it would give a number without a word:
    - truth with a column named as grades that no relevance= names (_unread_grade_column;
      relevance=none says it is not one);
    - numeric item ids under convention='trec_eval', whose tie-break orders ids as text
      (_text_order_warning);
    - rank= naming a column named as scores are, or score= one named as ranks are
      (_order_column_warning);
    - an input whose columns cannot be looked up (an ephemeral model, a CTE name, a subquery, a
      unit test's fixture): what is otherwise found by name is then not found, unless named, so
      that moving a graded truth to an ephemeral model would count its grade-0 rows as relevant.
      Naming each (relevance=none, truth_by=[] included) says it is meant. -#}
{% macro _input_warnings(arguments, options) %}
    {#- the model the warning is about: dbt's log line does not say, and models build in threads -#}
    {%- set where = " (" ~ model.name ~ ")" if model is defined and model is mapping and model.get('name') else "" -%}
    {%- set by = options.get('by') -%}
    {%- set used = [options.get('user', 'user_id'), options.get('item', 'item_id'), options.get('truth_user'), options.get('truth_item')]
                   + ([] if by is none else [by] if by is string else by | list) -%}
    {%- set truth_is_list = rank_metrics._truth_is_list(arguments.truth_columns, options.get('truth_item') or options.get('item', 'item_id'),
                                                         options.get('truth_shape')) | trim == 'true' -%}
    {%- set unread = '' if 'relevance' in options else rank_metrics._unread_grade_column(arguments.truth_columns, none, used, truth_is_list) | trim -%}
    {%- if unread -%}
        {%- do exceptions.warn("rank_metrics" ~ where ~ ": " ~ rank_metrics._unread_grade_message(arguments.truth_columns, unread, unread, truth_is_list) | trim) -%}
    {%- endif -%}
    {%- set text_order = rank_metrics._text_order_warning(arguments.predictions_columns, options.get('item', 'item_id'),
                                                           options.get('convention'), options.get('tie_break')) | trim -%}
    {%- if text_order -%}
        {%- do exceptions.warn("rank_metrics" ~ where ~ ": " ~ text_order) -%}
    {%- endif -%}
    {%- set order = rank_metrics._order_column_warning(options.get('rank'), options.get('score')) | trim -%}
    {%- if order -%}
        {%- do exceptions.warn("rank_metrics" ~ where ~ ": " ~ order) -%}
    {%- endif -%}
    {%- set unnamed = [] -%}
    {%- if arguments.predictions_columns is none and 'rank' not in options and 'score' not in options and options.get('predictions_shape') != 'list' -%}
        {%- do unnamed.append("predictions are ordered by a column rank unless rank= or score= names the order column") -%}
    {%- endif -%}
    {%- if arguments.truth_columns is none and 'relevance' not in options and options.get('truth_shape') != 'list' -%}
        {%- do unnamed.append("every truth row counts as relevant unless relevance= names its grade column (relevance=none: truth has none)") -%}
    {%- endif -%}
    {%- if arguments.truth_columns is none and options.get('by') and 'truth_by' not in options -%}
        {%- do unnamed.append("no by column is matched with truth's unless truth_by= names it (truth_by=[]: none is)") -%}
    {%- endif -%}
    {%- if unnamed -%}
        {%- set which = ('predictions and truth' if arguments.predictions_columns is none and arguments.truth_columns is none
                         else 'predictions' if arguments.predictions_columns is none else 'truth') -%}
        {%- do exceptions.warn("rank_metrics" ~ where ~ ": the columns of " ~ which ~ " cannot be looked up (an ephemeral model, a CTE name, a subquery or a "
            ~ "unit test's fixture), so they are not found by name and the data checks do not read them: " ~ unnamed | join('; ')) -%}
    {%- endif -%}
{% endmacro %}

{#- The data checks read both tables, so they run only when the model itself runs (dbt run or
    build, without --empty), or a release gate (dbt test, or build: a gate over a misspelt
    baseline or an empty truth would otherwise find no failing row and pass): never at parse,
    compile, docs generate or show. They read the inputs that can be queried on their own:
    relations. Ephemeral models, CTE names, subqueries and the fixtures of dbt unit tests exist
    only inside the model's own query, so those go unchecked (as in `rank_metrics.sql`), and the
    other input's checks run alone (input_problems' checked_tables). -#}
{% macro _data_checks_run() %}
    {{ return(execute and flags.WHICH in ('run', 'build', 'test') and not flags.EMPTY) }}
{% endmacro %}

{#- The relation a unit test's fixture stands for: under `dbt test` (or build) a ref to a model
    or seed is a CTE named __dbt__cte__<name>, as a ref to an ephemeral model is; the model or seed
    of that name, not ephemeral, as the warehouse holds it. None for anything else. -#}
{% macro _relation_behind_fixture(relation) %}
    {%- if not (execute and rank_metrics._is_relation(relation) and relation.is_cte and graph is defined) -%}
        {{ return(none) }}
    {%- endif -%}
    {%- set name = (relation.identifier or '') | replace('__dbt__cte__', '', 1) -%}
    {%- set nodes = graph.get('nodes', {}) -%}
    {%- for node in nodes.values() if node.resource_type in ['model', 'seed', 'snapshot'] and node.name == name -%}
        {{ return(none if node.config.materialized == 'ephemeral'
                  else adapter.get_relation(database=node.database, schema=node.schema, identifier=node.alias or node.name)) }}
    {%- endfor -%}
    {#- a unit test's context may hold no graph: the relation of that name in the target's schema -#}
    {{ return(none if nodes else adapter.get_relation(database=target.database, schema=target.schema, identifier=name)) }}
{% endmacro %}

{#- Whether an input can be queried on its own: a relation, not a CTE (a unit test's fixture, an
    ephemeral model), whose rows exist only inside the model's own query. -#}
{% macro _queryable(value) %}
    {{ return(rank_metrics._is_relation(value) and not value.is_cte) }}
{% endmacro %}

{#- Whether an input is a dbt relation (ref, source), not SQL text or a CTE's name. -#}
{% macro _is_relation(value) %}
    {{ return(value is mapping and value.get('metadata', {}).get('type', '').endswith('Relation')) }}
{% endmacro %}

{#- A relation as the macros can alias it (`from … as rm_p`). Under `dbt build --empty` (and
    dbt's sampling) a relation renders as a subquery with dbt's own alias,
    `(select … limit 0) _dbt_limit_subq_x`, and a second alias after that is a syntax error on
    PostgreSQL (DuckDB lets it pass), so such a relation is read through one more subquery. -#}
{% macro _aliasable(relation) %}
    {%- if rank_metrics._is_relation(relation) and (relation | string).strip().startswith('(') -%}
        {{ return('(select * from ' ~ relation ~ ')') }}
    {%- endif -%}
    {{ return(relation) }}
{% endmacro %}

{#- The columns (name, data_type) of a relation, or none for anything else (an ephemeral model,
    a CTE name, SQL text) and at parse time, when nothing can be looked up. A dbt unit test's
    fixture stands for a model or seed that exists (dbt reads its columns to build the fixture):
    its columns are that relation's, so that the test matches and reads the columns production
    does (a unit test found no truth_by or grade column, and computed something else). -#}
{% macro _relation_columns(relation, argument) %}
    {%- set behind = rank_metrics._relation_behind_fixture(relation) -%}
    {%- if behind is not none -%}
        {{ return(rank_metrics._relation_columns(behind, argument)) }}
    {%- endif -%}
    {%- if execute and rank_metrics._is_relation(relation) and not relation.is_cte -%}
        {#- the table itself, not the subquery that --empty or sampling renders (dbt-spark's
            `describe` cannot read that) -#}
        {%- set table = relation.incorporate(limit=none, event_time_filter=none) -%}
        {%- set columns = adapter.get_columns_in_relation(table) -%}
        {%- if rank_metrics.engine_profile('catalog_columns') | trim and (columns | length == 0 or columns | selectattr('data_type', 'equalto', 'ARRAY') | list) -%}
            {#- dbt-postgres reads information_schema, which has no materialized view and calls
                every array ARRAY: the catalog has every kind of relation, and an array's items'
                type (text[] against bigint truth was the database's own error) -#}
            {%- set found = run_query(rank_metrics.postgres__relation_columns(table.schema, table.identifier)) -%}
            {%- set columns = [] -%}
            {%- for row in found.rows -%}
                {%- do columns.append({'name': row['column_name'], 'data_type': row['data_type']}) -%}
            {%- endfor -%}
        {%- endif -%}
        {#- each as the SQL names it (on Snowflake, CUSTOMER_ID is customer_id) -#}
        {%- set named = [] -%}
        {%- for column in columns -%}
            {%- do named.append({'name': rank_metrics.column_as_named(column.name) | trim, 'data_type': column.data_type}) -%}
        {%- endfor -%}
        {%- set columns = named -%}
        {#- the adapters return no column for a relation that does not exist: say that, rather
            than name a missing column among none -#}
        {%- if columns | length == 0 -%}
            {%- do exceptions.raise_compiler_error("rank_metrics: " ~ argument ~ ": " ~ table ~ " has no columns: it does not exist yet (build or seed it first: "
                ~ "dbt build runs what a model refers to before the model; for a source, check its schema and name) or cannot be read") -%}
        {%- endif -%}
        {{ return(columns) }}
    {%- endif -%}
    {{ return(none) }}
{% endmacro %}

{#- The SQL of a metric, refused on dbt-spark when the model is a view whose text is longer than
    the 32,700 characters Spark's Hive metastore keeps for a view: Spark's own error is a
    metastore truncation message after a minute of retries (six metrics at four k under some
    options pass it). A table keeps no text. -#}
{% macro _fits_its_view(sql) %}
    {%- set limit = rank_metrics.engine_profile('view_text_limit') | trim -%}
    {%- if execute and limit and model is defined and model is mapping
          and (model.get('config') or {}).get('materialized') == 'view' and sql | length > limit | int -%}
        {%- do exceptions.raise_compiler_error("rank_metrics: this model's SQL is " ~ sql | length ~ " characters long, and Spark's Hive "
            ~ "metastore keeps at most " ~ limit ~ " of a view's text: materialize the model as a table "
            ~ "({{ config(materialized='table') }}), or ask for fewer metrics or k") -%}
    {%- endif -%}
    {{ return(sql) }}
{% endmacro %}


{#- What an entry point renders while dbt parses the project (execute is false): no argument is
    checked and no SQL made until the model runs, so that a bad argument in one model (k=0)
    fails that model when it runs, not every `dbt build --select` of another at parse time. The
    refs a model's SQL calls are read from its own file, not from this text. -#}
{% macro _while_parsing() %}
    {{ return("select 1 as rm_rendered_when_the_model_runs") }}
{% endmacro %}

{#- dbt's warnings of lists merged from several days or models, rows repeated, ids with a
    space in one table only, and a score passed as rank= (the queries and texts of macros/building_blocks/_data_shape.sql,
    which Python warns of too), when the model runs and both inputs are relations. -#}
{% macro _shape_warnings(arguments) %}
    {%- set plan = {} -%}
    {%- set accepted = ['predictions', 'truth', 'k', 'user', 'item', 'rank', 'score', 'relevance', 'by', 'truth_by', 'normalization',
                        'users', 'duplicates', 'tie_break', 'convention', 'predictions_columns', 'truth_columns', 'gain', 'gain_from',
                        'precision_denominator', 'recall_denominator', 'truth_scope', 'relevance_threshold', 'persistence', 'max_grade', 'auc_weight', 'mean', 'truth_user',
                        'truth_item', 'predictions_shape', 'truth_shape', 'item_separator'] -%}
    {%- set given = {} -%}
    {%- for name in accepted if name in arguments -%}{%- do given.update({name: arguments[name]}) -%}{%- endfor -%}
    {#- evaluate_over_time's lists are a period's each -#}
    {%- if arguments.get('period') is not none -%}
        {%- set by = arguments.get('by') -%}
        {%- do given.update({'by': [arguments.period] + ([] if by is none else [by] if by is string else by | list)}) -%}
    {%- endif -%}
    {%- do rank_metrics._plan(plan=plan, **given) -%}
    {%- do rank_metrics._shape_warnings_of_plan(plan, arguments.predictions, arguments.predictions_columns, arguments.truth_columns,
                                                [arguments.period] if arguments.get('period') is not none else []) -%}
{% endmacro %}

{#- _shape_warnings' queries and texts, of a plan made (`other`: the argument in truth's place,
    beyond_accuracy's train; `implied`: the grouping columns the caller adds to by). -#}
{% macro _shape_warnings_of_plan(plan, predictions, predictions_columns, truth_columns, implied=[], other='truth') %}
    {%- set where = " (" ~ model.name ~ ")" if model is defined and model is mapping and model.get('name') else "" -%}
    {%- if plan.shapes.predictions.list or plan.shapes.truth.list -%}{{ return('') }}{%- endif -%}
    {%- set summary = run_query(rank_metrics._shape_summary(plan, predictions_columns, truth_columns)).rows[0] -%}
    {%- set colliding = run_query(rank_metrics._shape_collisions(plan, predictions_columns)).rows if summary[0] != 0 else [] -%}
    {%- set messages = [] -%}
    {%- do rank_metrics._shape_messages(messages, plan, colliding[0] if colliding | length else none, summary[1:], implied, other) -%}
    {%- set rank = plan.names.rank -%}
    {%- if rank_metrics._rank_may_be_a_score(predictions_columns, rank, plan.names.score) | trim -%}
        {%- set found = run_query(rank_metrics._value_range(predictions, rank_metrics.quote_identifier(rank))) -%}
        {%- set said = rank_metrics._score_as_rank_message(rank, found.rows[0][0], found.rows[0][1]) | trim -%}
        {%- if said -%}{%- do messages.append(said) -%}{%- endif -%}
    {%- endif -%}
    {%- for message in messages -%}
        {%- do exceptions.warn("rank_metrics" ~ where ~ ": " ~ message) -%}
    {%- endfor -%}
{% endmacro %}
