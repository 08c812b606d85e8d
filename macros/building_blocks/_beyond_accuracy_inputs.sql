{#- The beyond-accuracy call's inputs (macros/metrics/beyond_accuracy.sql is its query): the
    arguments checked and resolved, the columns looked up and checked, the rows' problems as one
    query, and the accuracy metrics' plan for the warnings of the data's shape. Python's API and
    the dbt macro both call these: there is no second copy of a rule. -#}

{#- The call's arguments checked and resolved into `resolved` (Python's API and the dbt macro
    both call this): ks (the k values, sorted, each a whole number 1 or more), metrics
    ([{metric, definition}]: the convention's definition, or without one recommenders' where that
    library has the metric, else Evidently's), similarity (default 'features' under
    convention='evidently', else 'cooccurrence'), and the column names with their defaults
    (train_*, truth_* and features_item those of predictions). -#}
{% macro _beyond_accuracy_arguments(given, resolved) %}
    {%- set registry = {} -%}{%- do rank_metrics._beyond_accuracy_registry(registry) -%}
    {#- a misspelt keyword (the dbt macros take any) is named, never left to change nothing -#}
    {%- set known = ['k', 'metrics', 'by', 'convention', 'similarity', 'truth', 'item_features', 'user', 'item', 'rank', 'score', 'train_user',
                     'train_item', 'truth_user', 'truth_item', 'relevance', 'features_item', 'predictions_shape', 'truth_shape', 'item_separator'] -%}
    {%- for name in given | list | sort if name not in known -%}
        {%- if name in ['seed', 'resamples'] -%}
        {{ exceptions.raise_compiler_error("rank_metrics: " ~ rank_metrics._mention(name, given[name], 'word') ~ " is an argument of the permutation and bootstrap tests, which run in Python "
            ~ "(rank_metrics.compare_beyond_accuracy, rank-metrics beyond-accuracy --baseline); SQL has only the t test") }}
        {%- endif -%}
        {%- set nearest = rank_metrics._nearest_name(name, known + ['baseline', 'test', 'correction', 'family', 'alpha']) -%}
        {{ exceptions.raise_compiler_error("rank_metrics: unknown argument " ~ rank_metrics._mention(name, none, 'word', rank_metrics._shown(name))
            ~ (" (did you mean " ~ rank_metrics._shown(nearest) ~ "?)" if nearest else "")
            ~ "; the arguments after (predictions, train, k) are " ~ known[1:] | join(', ') ~ ", and baseline, test, correction, family and alpha (compare_beyond_accuracy)") }}
    {%- endfor -%}
    {%- set k = given.get('k') -%}
    {%- set ks = [k] if k is number else (k if k is iterable and k is not string and k is not mapping else []) -%}
    {%- set bad = [] -%}
    {#- (2.0 is no k, as evaluate has it) -#}
    {%- for value in ks if value is not number or value is boolean or value is float or value != value | int or value < 1 %}{% do bad.append(value) %}{% endfor -%}
    {%- if not ks or bad -%}
        {{ exceptions.raise_compiler_error("rank_metrics: " ~ rank_metrics._mention('k', k) ~ " must be a whole number 1 or more, or a list of them; got " ~ rank_metrics._shown(k)) }}
    {%- endif -%}
    {%- set convention = given.get('convention') -%}
    {%- if convention is not none and convention not in ['recommenders', 'evidently'] -%}
        {{ exceptions.raise_compiler_error("rank_metrics: " ~ rank_metrics._mention('convention', convention) ~ " of the beyond-accuracy metrics must be one of 'recommenders', 'evidently' (or none); got " ~ rank_metrics._shown(convention)) }}
    {%- endif -%}
    {%- set given_metrics = given.get('metrics') -%}
    {%- set asked = [] -%}
    {%- if given_metrics is none -%}
        {%- for metric, entry in registry.items() if convention is none or convention in entry.per_user %}{% do asked.append(metric) %}{% endfor -%}
    {%- else -%}
        {%- for metric in ([given_metrics] if given_metrics is string else given_metrics) %}{% do asked.append(metric) %}{% endfor -%}
    {%- endif -%}
    {%- if not asked -%}
        {{ exceptions.raise_compiler_error("rank_metrics: " ~ rank_metrics._mention('metrics', given_metrics) ~ " names no metric; name some of " ~ registry.keys() | join(', ') ~ ", or leave it out for all") }}
    {%- endif -%}
    {%- set metrics = [] -%}
    {%- for metric in asked -%}
        {%- if metric not in registry -%}
            {{ exceptions.raise_compiler_error("rank_metrics: " ~ rank_metrics._mention('metrics', given_metrics) ~ ": unknown beyond-accuracy metric " ~ rank_metrics._shown(metric) ~ "; expected some of " ~ registry.keys() | join(', ')) }}
        {%- endif -%}
        {%- set defined_by = registry[metric].per_user.keys() | list -%}
        {%- if convention is not none and convention not in defined_by -%}
            {{ exceptions.raise_compiler_error("rank_metrics: " ~ rank_metrics._mention('metrics', given_metrics) ~ ": " ~ convention ~ " has no " ~ metric ~ " (it is " ~ defined_by | join(' and ') ~ "'s); leave convention out to use that definition") }}
        {%- endif -%}
        {%- set entry = {'metric': metric, 'definition': convention or ('recommenders' if 'recommenders' in defined_by else 'evidently')} -%}
        {%- if entry not in metrics %}{% do metrics.append(entry) %}{% endif -%}
    {%- endfor -%}
    {%- set similarity = given.get('similarity') -%}
    {%- if similarity is none %}{% set similarity = 'features' if convention == 'evidently' else 'cooccurrence' %}{% endif -%}
    {%- if similarity not in ['cooccurrence', 'features'] -%}
        {{ exceptions.raise_compiler_error("rank_metrics: " ~ rank_metrics._mention('similarity', similarity) ~ " must be one of 'cooccurrence', 'features'; got " ~ rank_metrics._shown(similarity)) }}
    {%- endif -%}
    {%- set similar = metrics | selectattr('metric', 'in', ['diversity', 'serendipity']) | list | length > 0 -%}
    {%- if similar and similarity == 'features' and given.get('item_features') is none -%}
        {{ exceptions.raise_compiler_error("rank_metrics: " ~ rank_metrics._mention('similarity', similarity) ~ ": 'features'" ~ ("" if given.get('similarity') is not none else " (the default under convention='evidently')") ~ " compares items by their feature vectors: give " ~ rank_metrics._mention('item_features') ~ " (an item column and numeric feature columns), or similarity='cooccurrence'") }}
    {%- endif -%}
    {%- set names = {} -%}
    {%- for name, default in [('user', 'user_id'), ('item', 'item_id'), ('rank', none), ('score', none), ('train_user', none), ('train_item', none),
                              ('truth_user', none), ('truth_item', none), ('relevance', none), ('features_item', none)] -%}
        {%- set value = given.get(name, default) -%}
        {%- if value is not none and (value is not string or value | trim == '') -%}
            {{ exceptions.raise_compiler_error("rank_metrics: " ~ rank_metrics._mention(name, value) ~ " must name a column; got " ~ rank_metrics._shown(value)) }}
        {%- endif -%}
        {%- do names.update({name: value}) -%}
    {%- endfor -%}
    {%- for name in ['predictions_shape', 'truth_shape'] if given.get(name) is not none and given.get(name) not in ['long', 'list'] -%}
        {{ exceptions.raise_compiler_error("rank_metrics: " ~ rank_metrics._mention(name, given.get(name)) ~ " must be one of 'long', 'list'; got " ~ rank_metrics._shown(given.get(name))) }}
    {%- endfor -%}
    {%- set separator = given.get('item_separator') -%}
    {%- if separator is not none and (separator is not string or separator == '') -%}
        {{ exceptions.raise_compiler_error("rank_metrics: " ~ rank_metrics._mention('item_separator', separator) ~ " must be a non-empty text; got " ~ rank_metrics._shown(separator)) }}
    {%- endif -%}
    {%- do names.update({'predictions_shape': given.get('predictions_shape'), 'truth_shape': given.get('truth_shape'), 'item_separator': separator}) -%}
    {%- if names.rank is not none and names.score is not none -%}
        {{ exceptions.raise_compiler_error("rank_metrics: give rank or score, not both") }}
    {%- endif -%}
    {%- set by = given.get('by') -%}
    {%- set by = [] if by is none else ([by] if by is string else by | list) -%}
    {%- for name in by if name is not string or name | trim == '' -%}
        {{ exceptions.raise_compiler_error("rank_metrics: " ~ rank_metrics._mention('by', given.get('by')) ~ " must name columns; got " ~ rank_metrics._shown(given.get('by'))) }}
    {%- endfor -%}
    {%- do resolved.update(names) -%}
    {%- do resolved.update({'ks': ks | map('int') | unique | sort, 'metrics': metrics, 'by': by,
                            'similarity': similarity if similar else 'cooccurrence',
                            'train_user': names.train_user or names.user, 'train_item': names.train_item or names.item,
                            'truth_user': names.truth_user or names.user, 'truth_item': names.truth_item or names.item,
                            'features_item': names.features_item or names.item, 'uses_features': similar and similarity == 'features',
                            'uses_truth': given.get('truth') is not none,
                            'history': metrics | selectattr('metric', 'equalto', 'serendipity') | list | length > 0}) -%}
{% endmacro %}

{#- What the query needs to know of the inputs' columns, into `found` (order, descending,
    features, item_is_text, and unread_grade, a grade column of truth to warn of), from `columns` ({input: [{name, data_type}]}; an input whose columns
    are unknown is not checked): every column the call names is in its input, the order column
    is found by name when neither rank nor score is given, ids alike in type across inputs, and
    every item_features column besides the item a numeric feature. -#}
{% macro _beyond_accuracy_columns(resolved, columns, found) %}
    {%- set a = resolved -%}
    {%- set types = {} -%}
    {%- for table, listed in columns.items() if listed is not none -%}
        {%- set named = {} -%}{%- for column in listed %}{% do named.update({column.name: column.data_type | string}) %}{% endfor -%}
        {%- do types.update({table: named}) -%}
    {%- endfor -%}
    {#- list-shaped predictions or truth (a row per user, its items in a list column, or in a text
        column split by item_separator): read through their rows, the list's order its positions -#}
    {%- set shapes = {} -%}
    {%- for table, item_column in [('predictions', a.item), ('truth', a.truth_item)] -%}
        {%- set item_type = (types.get(table) or {}).get(item_column) -%}
        {%- set typed_list = item_type is not none and rank_metrics._element_type(item_type) | trim != item_type -%}
        {%- set shape = a[table ~ '_shape'] or ('list' if typed_list else 'long') -%}
        {%- set separated = shape == 'list' and not typed_list -%}
        {%- if separated and a.item_separator is none -%}
            {{ exceptions.raise_compiler_error("rank_metrics: " ~ rank_metrics._mention(table ~ '_shape', 'list', 'value') ~ " but item column " ~ rank_metrics._shown(item_column) ~ " of " ~ table ~ " is " ~ (item_type or 'not known to be a list') ~ ", not a list; for items in text, name their separator with " ~ rank_metrics._mention('item_separator', none, 'equals') ~ " (' ' in a Kaggle submission)") }}
        {%- endif -%}
        {%- do shapes.update({table: {'list': shape == 'list', 'separator': a.item_separator if separated else none,
                                      'element_type': rank_metrics._element_type(item_type) | trim if typed_list else ('varchar' if separated else item_type)}}) -%}
    {%- endfor -%}
    {%- if a.item_separator is not none and not shapes.predictions.list and not shapes.truth.list -%}
        {{ exceptions.raise_compiler_error(rank_metrics._no_table_said_to_be_a_list(a.item_separator) | trim) }}
    {%- endif -%}
    {%- set order = a.rank if a.rank is not none else a.score -%}
    {%- set descending = a.rank is none and a.score is not none -%}
    {%- if shapes.predictions.list -%}
        {%- set order, descending = 'rm_list_position', false -%}
    {%- endif -%}
    {%- if order is none -%}
        {%- set named = [] -%}
        {%- for name in ['rank', 'score'] if 'predictions' not in types or name in types.predictions %}{% do named.append(name) %}{% endfor -%}
        {%- if not named -%}
            {{ exceptions.raise_compiler_error("rank_metrics: predictions has no column rank or score: name the column that orders each list with rank= (1 first) or score= (highest first)") }}
        {%- elif named | length > 1 and 'predictions' in types -%}
            {{ exceptions.raise_compiler_error(rank_metrics._both_rank_and_score()) }}
        {%- endif -%}
        {%- set order, descending = named[0], named[0] == 'score' -%}
    {%- endif -%}
    {%- set needed = [] if shapes.predictions.list else [('predictions', 'score' if descending else 'rank', order)] -%}
    {%- for name in a.by %}{% do needed.append(('predictions', 'by', name)) %}{% endfor -%}
    {%- set pairs = [('user', 'train', 'train_user'), ('item', 'train', 'train_item')]
                    + ([('user', 'truth', 'truth_user'), ('item', 'truth', 'truth_item')] if a.uses_truth else [])
                    + ([('item', 'item_features', 'features_item')] if a.uses_features else []) -%}
    {%- for own, table, argument in pairs %}{% do needed.append(('predictions', own, a[own])) %}{% do needed.append((table, argument, a[argument])) %}{% endfor -%}
    {#- truth's grades, as evaluate reads them: relevance= or a column named relevance; an item
        graded 0 or less is not relevant (SPEC §1), every row relevant without grades -#}
    {%- if a.relevance is not none and not a.uses_truth -%}
        {{ exceptions.raise_compiler_error("rank_metrics: " ~ rank_metrics._mention('relevance', a.relevance) ~ " names truth's grade column, for serendipity's relevant items: give " ~ rank_metrics._mention('truth') ~ " too") }}
    {%- endif -%}
    {%- if a.relevance is not none and shapes.truth.list -%}
        {{ exceptions.raise_compiler_error("rank_metrics: " ~ rank_metrics._mention('relevance', a.relevance) ~ " names a grade column, which list-shaped truth has none of: each item of its lists is relevant") }}
    {%- endif -%}
    {%- if a.relevance is not none %}{% do needed.append(('truth', 'relevance', a.relevance)) %}{% endif -%}
    {%- set relevance = a.relevance if a.relevance is not none else ('relevance' if a.uses_truth and not shapes.truth.list and 'relevance' in (types.get('truth') or {}) else none) -%}
    {%- for table, argument, column in needed if table in types and column not in types[table] -%}
        {{ exceptions.raise_compiler_error("rank_metrics: column " ~ rank_metrics._shown(column) ~ " " ~ rank_metrics._mention(argument, column, 'argument') ~ " is not in " ~ table ~ " (its columns: " ~ types[table].keys() | join(', ') ~ ")") }}
    {%- endfor -%}
    {%- if 'predictions' in types and not shapes.predictions.list and rank_metrics._type_family(types.predictions[order]) | trim not in ['number', 'floating point'] -%}
        {{ exceptions.raise_compiler_error("rank_metrics: column " ~ rank_metrics._shown(order) ~ " " ~ rank_metrics._mention('score' if descending else 'rank', order, 'argument') ~ " of predictions is " ~ types.predictions[order] ~ "; it must be numeric") }}
    {%- endif -%}
    {%- for own, table, argument in pairs if 'predictions' in types and table in types -%}
        {%- set mine = shapes.predictions.element_type if own == 'item' else types.predictions[a[own]] -%}
        {%- set theirs = shapes.truth.element_type if table == 'truth' and own == 'item' else types[table][a[argument]] -%}
        {%- set families = [rank_metrics._type_family(mine) | trim, rank_metrics._type_family(theirs) | trim] -%}
        {%- if families[0] != families[1] and 'no type' not in families -%}
            {{ exceptions.raise_compiler_error("rank_metrics: column " ~ rank_metrics._shown(a[argument]) ~ " " ~ rank_metrics._mention(argument, a[argument], 'argument') ~ " of " ~ table ~ " is " ~ theirs ~ " but predictions' " ~ rank_metrics._shown(a[own]) ~ " is " ~ mine ~ "; cast one so that ids compare") }}
        {%- endif -%}
    {%- endfor -%}
    {%- if relevance is not none and 'truth' in types and rank_metrics._type_family(types.truth[relevance]) | trim not in ['number', 'floating point'] -%}
        {{ exceptions.raise_compiler_error("rank_metrics: column " ~ rank_metrics._shown(relevance) ~ " " ~ rank_metrics._mention('relevance', relevance, 'argument') ~ " of truth is " ~ types.truth[relevance] ~ "; grades must be numeric (an item graded above 0 is relevant)") }}
    {%- endif -%}
    {%- set features = [] -%}
    {%- if a.uses_features -%}
        {%- for column, data_type in (types.get('item_features') or {}).items() if column != a.features_item -%}
            {%- if rank_metrics._type_family(data_type) | trim not in ['number', 'floating point'] -%}
                {{ exceptions.raise_compiler_error("rank_metrics: column " ~ rank_metrics._shown(column) ~ " of item_features is " ~ data_type ~ "; every column besides the item column (" ~ rank_metrics._shown(a.features_item) ~ ") is a feature and must be numeric") }}
            {%- endif -%}
            {%- do features.append(column) -%}
        {%- endfor -%}
        {%- if not features -%}
            {{ exceptions.raise_compiler_error("rank_metrics: item_features has no feature column besides the item column " ~ rank_metrics._shown(a.features_item) ~ " (or its columns cannot be looked up)") }}
        {%- endif -%}
    {%- endif -%}
    {%- set item_type = shapes.predictions.element_type -%}
    {%- set by_types = {} -%}
    {%- for name in a.by if (types.get('predictions') or {}).get(name) is not none %}{% do by_types.update({name: types.predictions[name]}) %}{% endfor -%}
    {%- set order_type = none if shapes.predictions.list else (types.get('predictions') or {}).get(order) -%}
    {#- a column named as grades are (rating, label, …) that relevance= does not name: every truth
        row is then relevant, those graded 0 too, as evaluate warns (_unread_grade_column) -#}
    {%- set unread_grade = rank_metrics._unread_grade_column(columns.truth, a.relevance, [a.truth_user, a.truth_item] + a.by, shapes.truth.list) | trim
                           if a.uses_truth and columns.get('truth') is not none else '' -%}
    {%- do found.update({'order': order, 'order_type': order_type, 'relevance': relevance, 'descending': descending, 'features': features, 'shapes': shapes, 'by_types': by_types,
                         'unread_grade': unread_grade,
                         'types': types,
                         'item_is_text': item_type is not none and rank_metrics._type_family(item_type) | trim == 'string'}) -%}
{% endmacro %}

{#- compare_beyond_accuracy's own rules, into `comparison` (after _comparison_options): by names
    the models' column (then any segments'), some metric asked has per-user values to pair, and
    the baseline as an SQL literal of the models' column's type (`literal`), and that type
    (`by_type`, none when unknown). -#}
{#- An error when no metric asked has per-user values (beyond_accuracy_users' columns,
    compare_beyond_accuracy's pairs): `does` says what the macro does with them. -#}
{% macro _per_user_metrics_asked(resolved, does) %}
    {%- set registry = {} -%}{%- do rank_metrics._beyond_accuracy_registry(registry) -%}
    {%- set per_user_asked = [] -%}
    {%- for entry in resolved.metrics if registry[entry.metric].per_user[entry.definition] %}{% do per_user_asked.append(entry.metric) %}{% endfor -%}
    {%- if not per_user_asked -%}
        {%- set asked = [] -%}{%- for entry in resolved.metrics %}{% do asked.append(entry.metric ~ ' (' ~ entry.definition ~ ')') %}{% endfor -%}
        {#- the per-user metrics as the registry has them: "novelty under evidently" where only one convention's is per user -#}
        {%- set per_user = [] -%}
        {%- for metric, entry in registry.items() -%}
            {%- set by_convention = entry.per_user.items() | selectattr(1) | map(attribute=0) | list -%}
            {%- if by_convention | length == entry.per_user | length %}{% do per_user.append(metric) %}
            {%- elif by_convention %}{% do per_user.append(metric ~ ' under ' ~ by_convention | join(' or ')) %}{% endif -%}
        {%- endfor -%}
        {{ exceptions.raise_compiler_error("rank_metrics: " ~ does ~ " of the per-user metrics (" ~ per_user | join(', ') ~ "); "
            ~ rank_metrics._mention('metrics') ~ " asks only for metrics of a whole group's lists: " ~ asked | join(', ')) }}
    {%- endif -%}
{% endmacro %}

{% macro _beyond_accuracy_comparison(resolved, found, comparison) %}
    {%- if not resolved.by -%}
        {{ exceptions.raise_compiler_error("rank_metrics: compare_beyond_accuracy: " ~ rank_metrics._mention('by') ~ " must name the column whose values are the models (baseline is one of them), then any segment columns; got none") }}
    {%- endif -%}
    {%- do rank_metrics._per_user_metrics_asked(resolved, "compare_beyond_accuracy pairs the users' values") -%}
    {%- do comparison.update({'literal': rank_metrics._baseline_literal({'names': {'by': resolved.by}, 'by_types': found.by_types}, comparison.baseline),
                              'by_type': found.by_types.get(resolved.by[0])}) -%}
{% endmacro %}

{#- The first problem of the rows, as one row of text, or no row (the Python API's checks of
    what the query reads): train without rows, NULL ids (of train, predictions and truth), NaN or
    infinite ids in a floating point or decimal column (NaN equals NaN in the engines' joins but is
    no id), NULL or non-finite by values and order values (SPEC §4: the engines sort NULL and NaN
    differently, so each would list other items), NULL or non-finite grades (found.relevance:
    truth's grade column, if any), a user with several rows of list-shaped predictions, and under
    similarity='features' a listed item (within the largest k) without a feature vector, with
    several, with a NULL, NaN or infinite feature, or with a zero vector; with `comparison`
    (compare_beyond_accuracy's), a baseline that is no value of the models' column. `found` is
    _beyond_accuracy_columns'. Each table's counts are one aggregate, read in one pass; ids are
    shown as text: they are data, never SQL. -#}
{% macro _beyond_accuracy_problems(predictions, train, arguments, found, truth=none, item_features=none, comparison=none) -%}
{%- set q = rank_metrics.quote_identifier -%}
{%- set a = arguments -%}
{%- set shapes = found.shapes -%}
{%- set given_predictions = predictions -%}
{%- set predictions = rank_metrics._beyond_accuracy_rows(predictions, shapes.get('predictions'), a.by + [a.user], a.item, 'rm_list_position') -%}
{%- set text = rank_metrics.type_string() -%}
{%- set double = rank_metrics.type_double() -%}
{#- each table's checks in the order they are reported, (column, type where known, what it holds,
    the rule's words): NULL, then NaN or ±inf where the type can hold them -#}
{%- set ids = ('user and item ids', 'given', 'finite numbers') -%}
{%- set checked = {'train': [(a.train_user, ids), (a.train_item, ids)],
                   'predictions': [(a.user, ids), (a.item, ids)],
                   'truth': [(a.truth_user, ids), (a.truth_item, ids)]} -%}
{%- for name in a.by %}{% do checked.predictions.append((name, ('by values', 'not be NULL', 'finite numbers'))) %}{% endfor -%}
{%- if not shapes.predictions.list -%}
    {%- set order_argument = ('score' if found.descending else 'rank') ~ ' values' -%}
    {%- do checked.predictions.append((found.order, (order_argument, 'not be NULL', 'finite numbers'))) -%}
{%- endif -%}
{%- set tables = {'train': train, 'predictions': predictions,
                  'truth': rank_metrics._beyond_accuracy_rows(truth, shapes.get('truth'), [a.truth_user], a.truth_item, none) if truth is not none else none} -%}
{%- set counts = [] -%}{%- set cases = [] -%}
{%- for table in ['train', 'predictions', 'truth'] if tables[table] is not none -%}
    {%- set alias = 'rm_' ~ table -%}
    {%- set types = found.get('types', {}).get(table) or {} -%}
    {%- for column, (holds, null_rule, finite_rule) in checked[table] -%}
        {%- set is_list_item = shapes.get(table, {}).get('list') and column == (a.truth_item if table == 'truth' else a.item) -%}
        {%- set data_type = shapes[table].element_type if is_list_item else types.get(column) -%}
        {%- set count = alias ~ '.rm_nulls_' ~ loop.index -%}
        {%- do counts.append((table, 'count(case when ' ~ q(column) ~ ' is null then 1 end) as rm_nulls_' ~ loop.index)) -%}
        {%- do cases.append((count, table ~ ' has NULL in column ' ~ column ~ ' (' ~ holds ~ ' must ' ~ ('be ' if null_rule == 'given' else '') ~ null_rule ~ ')')) -%}
        {%- if rank_metrics._can_hold_nan(data_type) | trim == 'True' -%}
            {%- do counts.append((table, 'count(case when ' ~ rank_metrics.not_a_finite_number(q(column), data_type) ~ ' then 1 end) as rm_nonfinite_' ~ loop.index)) -%}
            {%- do cases.append((alias ~ '.rm_nonfinite_' ~ loop.index, table ~ ' has NaN or an infinite value in column ' ~ column ~ ' (' ~ holds ~ ' must be ' ~ finite_rule ~ ')')) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- if table == 'truth' and found.relevance is not none -%}
        {%- do counts.append((table, 'count(case when ' ~ q(found.relevance) ~ ' is null or ' ~ rank_metrics.not_a_finite_number('cast(' ~ q(found.relevance) ~ ' as ' ~ double ~ ')', double) ~ ' then 1 end) as rm_grades')) -%}
        {%- do cases.append((alias ~ '.rm_grades', 'truth has NULL, NaN or an infinite value in column ' ~ found.relevance ~ ' (relevance grades must be finite numbers)')) -%}
    {%- endif -%}
{%- endfor -%}
select problem
from (
    select 1 as rm_order,
        case when rm_train.rm_rows = 0 then {{ rank_metrics.string_literal('train has no rows: the metrics read the catalog, popularity and history from it') }}
        {%- for count, problem in cases %}
             when {{ count }} > 0 then {{ rank_metrics.string_literal(problem) }}
        {%- endfor %}
        end as problem
    from
    {%- for table in ['train', 'predictions', 'truth'] if tables[table] is not none %}
        {{ 'cross join ' if not loop.first }}(
            select {% if table == 'train' %}count(*) as rm_rows, {% endif %}{% for owner, count in counts if owner == table %}{{ count }}{{ ', ' if not loop.last }}{% endfor %}
            from {{ tables[table] }} as rm_n
        ) as rm_{{ table }}
    {%- endfor %}
    {%- if shapes.predictions.list %}
    union all
    -- a list-shaped table's row is a user's whole list (as evaluate reads it)
    select 2, min(problem)
    from (
        select {{ rank_metrics.string_literal(rank_metrics._mention('predictions_shape', 'list', 'value') ~ " reads a row as a user's whole list, but user ") }} || cast({{ q(a.user) }} as {{ text }})
            || {{ rank_metrics.string_literal(' has ') }} || cast(count(*) as {{ text }}) || {{ rank_metrics.string_literal(' rows in predictions; '
            ~ ('' if a.by else 'the lists of several models need ' ~ rank_metrics._mention('by', none, 'equals') ~ ' naming the column that tells them apart; ')
            ~ 'a row per item is long form: pass its rank or score, not a list shape') }} as problem
        from {{ given_predictions }} as rm_p
        group by {% for name in a.by %}{{ q(name) }}, {% endfor %}{{ q(a.user) }}
        having count(*) > 1
    ) as rm_repeated_lists
    {%- endif %}
    {%- if a.uses_features %}
    union all
    select 3, min(case when f.rm_item is null then {{ rank_metrics.string_literal('item_features has no row for the ') }} || l.rm_kind || cast(l.rm_item as {{ text }})
                                                   || {{ rank_metrics.string_literal(" (similarity='features' compares items by their feature vectors)") }}
                       when f.rm_rows > 1 then {{ rank_metrics.string_literal('item_features has more than one row for the ') }} || l.rm_kind || cast(l.rm_item as {{ text }})
                                                   || {{ rank_metrics.string_literal(' (each item needs one feature vector)') }}
                       when f.rm_unfit_column is not null then {{ rank_metrics.string_literal('item_features has NULL, NaN or an infinite value in column ') }} || f.rm_unfit_column
                                                   || {{ rank_metrics.string_literal(' for the ') }} || l.rm_kind || cast(l.rm_item as {{ text }}) || {{ rank_metrics.string_literal(' (features must be finite numbers)') }}
                       when f.rm_norm = 0 then {{ rank_metrics.string_literal('item_features gives the ') }} || l.rm_kind || cast(l.rm_item as {{ text }})
                                                   || {{ rank_metrics.string_literal(" a zero feature vector, whose cosine with any other is undefined") }}
                       {#- features near 1e-160 or 1e160 square to 0 or infinity: the cosine was NaN, a raw
                           ConversionException of the exact sums (a user's trial) #}
                       when f.rm_squares < 2.2250738585072014e-308 or {{ rank_metrics.not_a_finite_number('f.rm_squares', double) }}
                           then {{ rank_metrics.string_literal('item_features gives the ') }} || l.rm_kind || cast(l.rm_item as {{ text }})
                                                   || {{ rank_metrics.string_literal(" a feature vector whose squared length is too small or too large for a double (features beyond about 1e-154 and 1e154): scale the features") }} end)
    from (
        select {{ rank_metrics.string_literal('listed item ') }} as rm_kind, rm_item, rm_user
        from (
            select {{ q(a.item) }} as rm_item, {{ q(a.user) }} as rm_user,
                row_number() over (partition by {% for name in a.by %}{{ q(name) }}, {% endfor %}{{ q(a.user) }} order by {{ q(found.order) }} {{ 'desc' if found.descending else 'asc' }}, {{ rank_metrics.text_in_byte_order(q(a.item)) if found.item_is_text else q(a.item) }} asc) as rm_position
            from {{ predictions }} as rm_p
        ) as n
        where rm_position <= {{ a.ks | max | int }}
        {%- if a.history %}
        union all
        -- serendipity compares each listed item with its user's train items
        select {{ rank_metrics.string_literal('train item ') }}, t.{{ q(a.train_item) }}, t.{{ q(a.train_user) }}
        from {{ train }} as t
        where t.{{ q(a.train_user) }} in (select {{ q(a.user) }} from {{ predictions }} as rm_p)
        {%- endif %}
    ) as l
    left join (
        -- per item: its rows, the first feature column (by name) holding NULL, NaN or ±inf, the
        -- vector's sum of absolute values (0 only for a zero vector) and its squared length
        select {{ q(a.features_item) }} as rm_item, count(*) as rm_rows,
            min(coalesce({% for column in found.features | sort %}case when {{ q(column) }} is null or {{ rank_metrics.not_a_finite_number('cast(' ~ q(column) ~ ' as ' ~ double ~ ')', double) }}
                              then {{ rank_metrics.string_literal(column) }} end, {% endfor %}null)) as rm_unfit_column,
            max({% for column in found.features %}{{ ' + ' if not loop.first }}abs(cast({{ q(column) }} as {{ double }})){% endfor %}) as rm_norm,
            max({% for column in found.features %}{{ ' + ' if not loop.first }}cast({{ q(column) }} as {{ double }}) * cast({{ q(column) }} as {{ double }}){% endfor %}) as rm_squares
        from {{ item_features }} as rm_f
        group by {{ q(a.features_item) }}
    ) as f
        on f.rm_item = l.rm_item
    {%- endif %}
    {%- if comparison %}
    union all
    select 4, {{ rank_metrics._baseline_problem(q(a.by[0]), a.by[0], comparison.by_type, comparison.baseline, comparison.literal, predictions) }}
    {%- endif %}
) as rm_problems
where problem is not null
order by rm_order
limit 1
{%- endmacro %}

{#- The accuracy metrics' plan of a beyond-accuracy call, into `plan`, with train in truth's
    place: evaluate's warnings of the data's shape (macros/building_blocks/_data_shape.sql) read
    it to tell lists merged from several models or days, a row twice, and ids with a space at an
    end in one of predictions and train, which give a plausible wrong number with no error. Long
    lists only: list-shaped ones have no ranks to collide. -#}
{% macro _beyond_accuracy_shape_plan(resolved, found, predictions, train, plan) %}
    {%- set ordered_by = {('score' if found.descending else 'rank'): found.order} -%}
    {%- do rank_metrics._plan(plan=plan, predictions=predictions, truth=train, k=resolved.ks, user=resolved.user,
                              item=resolved.item, by=resolved.by or none, truth_user=resolved.train_user,
                              truth_item=resolved.train_item, **ordered_by) -%}
{% endmacro %}
