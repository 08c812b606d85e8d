{#- Beyond accuracy: how much of the catalog the lists use, how popular, novel and varied they
    are, per group (by) and k, in one query (docs/definitions.md, "Beyond accuracy"). Inputs: the
    predictions (lists, cut at k), train (the (user, item) interactions the model learned from:
    the catalog, the items' popularity, each user's history and the co-occurrence similarity),
    optionally truth (serendipity's relevance: an item of the user's truth rows is relevant;
    without truth every item is) and item_features (an item column and numeric feature columns:
    the cosine similarity). Train is the same for every group. Each metric follows its
    `definition`: 'recommenders' (microsoft/recommenders 1.2) or 'evidently' (Evidently 0.7). -#}

{#- The beyond-accuracy registry: each metric's label, the libraries that define it and, for each,
    whether it is a mean over users (with a standard error) or one value of the whole group's
    lists. Python's API, CLI and docs read it. A macro returns only text in plain Jinja: the
    caller passes a dict to fill. -#}
{% macro _beyond_accuracy_registry(registry) -%}
    {%- do registry.update({
        'catalog_coverage': {'label': 'catalog coverage', 'per_user': {'recommenders': false, 'evidently': false},
                             'description': 'The share of the train items that the lists recommend (Evidently: only recommended items that occur in train).'},
        'distributional_coverage': {'label': 'distributional coverage', 'per_user': {'recommenders': false},
                                    'description': 'The entropy (base 2) of the items\' shares of all recommendation slots.'},
        'gini': {'label': 'Gini index', 'per_user': {'evidently': false},
                 'description': 'The Gini index of the recommended items\' slot counts: 0 when every item fills as many slots.'},
        'personalization': {'label': 'personalization', 'per_user': {'evidently': false},
                            'description': '1 minus the mean overlap of two users\' lists.'},
        'novelty': {'label': 'novelty', 'per_user': {'recommenders': false, 'evidently': true},
                    'description': 'The mean self-information -log2 of a recommended item\'s popularity in train.'},
        'arp': {'label': 'average recommendation popularity', 'per_user': {'evidently': true},
                'description': 'Per user, the mean number of train users of the listed items; the mean over users.'},
        'arp_normalized': {'label': 'normalized ARP', 'per_user': {'evidently': true},
                           'description': 'ARP over the largest number of train users of one item.'},
        'diversity': {'label': 'diversity', 'per_user': {'recommenders': true, 'evidently': true},
                      'description': 'Per user, 1 minus the similarity of the pairs of listed items (Evidently: the dissimilarity summed over the pairs, over the list length).'},
        'serendipity': {'label': 'serendipity', 'per_user': {'recommenders': true, 'evidently': true},
                        'description': 'Per user, how unlike the user\'s train items the relevant listed items are.'},
    }) -%}
{%- endmacro %}

{#- The call's arguments checked and resolved into `resolved` (Python's API and the dbt macro
    both call this): ks (the k values, sorted, each a whole number 1 or more), metrics
    ([{metric, definition}]: the convention's definition, or without one recommenders' where that
    library has the metric, else Evidently's), similarity (default 'features' under
    convention='evidently', else 'cooccurrence'), and the column names with their defaults
    (train_*, truth_* and features_item those of predictions). -#}
{% macro _beyond_accuracy_arguments(given, resolved) %}
    {%- set registry = {} -%}{%- do rank_metrics._beyond_accuracy_registry(registry) -%}
    {%- set k = given.get('k') -%}
    {%- set ks = [k] if k is number else (k if k is iterable and k is not string and k is not mapping else []) -%}
    {%- set bad = [] -%}
    {%- for value in ks if value is not number or value is boolean or value != value | int or value < 1 %}{% do bad.append(value) %}{% endfor -%}
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
        {{ exceptions.raise_compiler_error("rank_metrics: " ~ rank_metrics._mention('similarity', similarity) ~ ": 'features' (the default under convention='evidently') compares items by their feature vectors: give " ~ rank_metrics._mention('item_features') ~ " (an item column and numeric feature columns), or similarity='cooccurrence'") }}
    {%- endif -%}
    {%- set names = {} -%}
    {%- for name, default in [('user', 'user_id'), ('item', 'item_id'), ('rank', none), ('score', none), ('train_user', none), ('train_item', none),
                              ('truth_user', none), ('truth_item', none), ('features_item', none)] -%}
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
    features, item_is_text), from `columns` ({input: [{name, data_type}]}; an input whose columns
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
        {%- endif -%}
        {%- set order, descending = named[0], named[0] == 'score' -%}
    {%- endif -%}
    {%- set needed = [] if shapes.predictions.list else [('predictions', 'score' if descending else 'rank', order)] -%}
    {%- for name in a.by %}{% do needed.append(('predictions', 'by', name)) %}{% endfor -%}
    {%- set pairs = [('user', 'train', 'train_user'), ('item', 'train', 'train_item')]
                    + ([('user', 'truth', 'truth_user'), ('item', 'truth', 'truth_item')] if a.uses_truth else [])
                    + ([('item', 'item_features', 'features_item')] if a.uses_features else []) -%}
    {%- for own, table, argument in pairs %}{% do needed.append(('predictions', own, a[own])) %}{% do needed.append((table, argument, a[argument])) %}{% endfor -%}
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
    {%- do found.update({'order': order, 'descending': descending, 'features': features, 'shapes': shapes,
                         'item_is_text': item_type is not none and rank_metrics._type_family(item_type) | trim == 'string'}) -%}
{% endmacro %}

{#- The query. `metrics`: [{'metric', 'definition'}] in the order of the result's rows; `by`,
    `user`, `item`, `order`, `train_user`, `train_item`, `truth_user`, `truth_item`,
    `features_item` and `feature_columns` are column names (quoted here); `descending`: the
    order column is a score; `ks` whole numbers 1 or more. With `per_user`, a row per group,
    user and k with each per-user metric's column instead of the group rows. -#}
{% macro _beyond_accuracy_query(predictions, train, ks, metrics, by, user, item, order, descending, train_user, train_item,
                               truth=none, truth_user=none, truth_item=none, item_features=none, features_item=none,
                               feature_columns=[], similarity='cooccurrence', item_is_text=false, per_user=false, shapes={}) -%}
{%- set q = rank_metrics.quote_identifier -%}
{%- set predictions = rank_metrics._beyond_accuracy_rows(predictions, shapes.get('predictions'), by + [user], item, 'rm_list_position') -%}
{%- set truth = rank_metrics._beyond_accuracy_rows(truth, shapes.get('truth'), [truth_user], truth_item, none) if truth is not none else none -%}
{%- set double = rank_metrics.type_double() -%}
{%- set quoted_by = [] -%}{%- for name in by %}{% do quoted_by.append(q(name)) %}{% endfor -%}
{%- set by_list = quoted_by | join(', ') ~ (', ' if by else '') -%}
{%- set asked = {} -%}{%- for entry in metrics %}{% do asked.update({entry.metric: entry.definition}) %}{% endfor -%}
{%- set similar = 'diversity' in asked or 'serendipity' in asked -%}
{%- set ln2 = 'ln(cast(2 as ' ~ double ~ '))' -%}
{%- set item_key = rank_metrics.text_in_byte_order(q(item)) if item_is_text else q(item) -%}
{%- set shown = ['k=' ~ rank_metrics._shown_as_given(ks | list)] -%}
{%- for entry in metrics %}{% do shown.append(entry.metric ~ '=' ~ entry.definition) %}{% endfor -%}
{%- set listed = (shapes.get('predictions') or {}).get('list') -%}
{%- for name, value in [('by', by), ('user', user), ('item', item), (('score' if descending else 'rank'), none if listed else order), ('train_user', train_user),
                        ('train_item', train_item), ('similarity', similarity if similar else none)] if value -%}
    {%- do shown.append(name ~ '=' ~ rank_metrics._shown_as_given(value)) -%}
{%- endfor -%}
-- rank_metrics {{ rank_metrics._package_version() }}: beyond_accuracy{{ '_users' if per_user }}
-- options: {{ rank_metrics._printable(shown | join(', ')) }}
with rm_ks as (
    {%- for k in ks %}
    select cast({{ k | int }} as bigint) as k{{ ' union all' if not loop.last }}
    {%- endfor %}
),
rm_listed as (
    -- each list's entries within the largest k, numbered in list order (ties by item)
    select {{ by_list }}rm_user, rm_item, rm_position
    from (
        select {{ by_list }}{{ q(user) }} as rm_user, {{ q(item) }} as rm_item,
            row_number() over (partition by {{ by_list }}{{ q(user) }}
                               order by {{ q(order) }} {{ 'desc' if descending else 'asc' }}, {{ item_key }} asc) as rm_position
        from {{ predictions }} as rm_p
    ) as n
    where rm_position <= {{ ks | max | int }}
),
rm_slots as (
    -- the entries within each k: the recommendation slots
    select {{ rank_metrics._column_prefix(quoted_by, 'l') }}ks.k, l.rm_user, l.rm_item, l.rm_position
    from rm_listed as l
    cross join rm_ks as ks
    where l.rm_position <= ks.k
),
rm_user_lists as (
    select {{ by_list }}k, rm_user, count(*) as rm_length
    from rm_slots
    group by {{ by_list }}k, rm_user
),
rm_groups as (
    select {{ by_list }}k, count(*) as rm_n
    from rm_user_lists
    group by {{ by_list }}k
),
rm_train as (
    select {{ q(train_user) }} as rm_user, {{ q(train_item) }} as rm_item
    from {{ train }} as rm_t
),
{#- the distinct users of each train item (u_i) and of train (U) are counted only for the
    metrics that read them: over 10M train rows those counts are most of the query's time -#}
{%- set popularity = 'arp' in asked or 'arp_normalized' in asked or asked.get('novelty') == 'evidently' %}
{%- set train_users = asked.get('novelty') == 'evidently' %}
{%- if popularity %}
rm_train_pairs as (
    -- each (item, user) of train once, with its rows: u_i is then a count of rows, which DuckDB
    -- makes in 0.94 s over 10M train rows against count(distinct)'s 1.27 s
    select rm_item, rm_user, count(*) as rm_rows
    from rm_train
    group by rm_item, rm_user
),
{%- endif %}
rm_train_items as (
    -- each train item's rows (t_i){{ ' and distinct users (u_i)' if popularity }}
    select rm_item, {{ 'sum(rm_rows) as rm_rows, count(*) as rm_users' if popularity else 'count(*) as rm_rows' }}
    from {{ 'rm_train_pairs' if popularity else 'rm_train' }}
    group by rm_item
),
rm_train_totals as (
    select i.rm_rows, i.rm_items{{ ', i.rm_most_users' if popularity }}{{ ', u.rm_users' if train_users }}
    from (select sum(rm_rows) as rm_rows, count(*) as rm_items{{ ', max(rm_users) as rm_most_users' if popularity }} from rm_train_items) as i
    {%- if train_users %}
    cross join (select count(distinct rm_user) as rm_users from rm_train) as u
    {%- endif %}
),
rm_catalog as (
    -- per group and k, over the recommended items with their slot counts c (ascending: j)
    select {{ rank_metrics._column_prefix(quoted_by, 's') }}s.k,
        count(*) as rm_items,
        count(ti.rm_item) as rm_known_items,
        sum(s.rm_count) as rm_slots,
        sum(s.rm_count * s.rm_count) as rm_squares,
        sum(s.rm_count * ln(cast(s.rm_count as {{ double }}))) as rm_count_logs,
        sum(s.rm_order * s.rm_count) as rm_ordered,
        sum(case when ti.rm_item is not null
                 then s.rm_count * (ln(cast(tt.rm_rows as {{ double }})) - ln(cast(ti.rm_rows as {{ double }}))) else 0 end) as rm_surprisal
    from (
        select {{ by_list }}k, rm_item, rm_count,
            row_number() over (partition by {{ by_list }}k order by rm_count) as rm_order
        from (
            select {{ by_list }}k, rm_item, count(*) as rm_count
            from rm_slots
            group by {{ by_list }}k, rm_item
        ) as c
    ) as s
    left join rm_train_items as ti
        on s.rm_item = ti.rm_item
    cross join rm_train_totals as tt
    group by {{ rank_metrics._column_prefix(quoted_by, 's') }}s.k
),
{%- if popularity %}
rm_user_popularity as (
    -- per user, its listed items that occur in train: their mean self-information and popularity
    select {{ rank_metrics._column_prefix(quoted_by, 's') }}s.k, s.rm_user,
        {%- if train_users %}
        avg((ln(cast(tt.rm_users as {{ double }})) - ln(cast(ti.rm_users as {{ double }}))) / {{ ln2 }}) as rm_novelty,
        {%- endif %}
        avg(cast(ti.rm_users as {{ double }})) as rm_arp,
        avg(ti.rm_users / cast(tt.rm_most_users as {{ double }})) as rm_arp_normalized
    from rm_slots as s
    inner join rm_train_items as ti
        on s.rm_item = ti.rm_item
    cross join rm_train_totals as tt
    group by {{ rank_metrics._column_prefix(quoted_by, 's') }}s.k, s.rm_user
),
{%- endif %}
{%- if similar %}
rm_pairs as (
    -- diversity's pairs: two entries of one list holding different items, with the later position
    select {{ rank_metrics._column_prefix(quoted_by, 'a') }}a.rm_user, a.rm_item as rm_a, b.rm_item as rm_b, b.rm_position as rm_last
    from rm_listed as a
    inner join rm_listed as b
        on {{ rank_metrics._equal_prefix(quoted_by, 'a', 'b') }}a.rm_user = b.rm_user and a.rm_position < b.rm_position and a.rm_item <> b.rm_item
),
rm_history as (
    -- serendipity's pairs: each listed entry with each train row of its user
    select {{ rank_metrics._column_prefix(quoted_by, 'l') }}l.rm_user, l.rm_item, l.rm_position, t.rm_item as rm_before
    from rm_listed as l
    inner join rm_train as t
        on l.rm_user = t.rm_user
),
rm_needed as (
    -- the item pairs whose similarity the lists need, and no other (distinct, not a bare union,
    -- which BigQuery refuses)
    select distinct rm_a, rm_b
    from (
        select rm_a, rm_b from rm_pairs
        union all
        select rm_item, rm_before from rm_history
    ) as n
),
{%- if similarity != 'features' %}
rm_needed_train as (
    -- the (user, item) pairs of train, once each, of the items the needed pairs name
    select distinct rm_user, rm_item
    from rm_train
    where rm_item in (select rm_a from rm_needed union all select rm_b from rm_needed)
),
{%- endif %}
rm_similar as (
    {%- if similarity == 'features' %}
    -- the cosine of the two items' feature vectors
    {%- set dot = [] %}{% set norm_a = [] %}{% set norm_b = [] %}
    {%- for column in feature_columns %}
    {%- do dot.append('cast(fa.' ~ q(column) ~ ' as ' ~ double ~ ') * fb.' ~ q(column)) %}
    {%- do norm_a.append('cast(fa.' ~ q(column) ~ ' as ' ~ double ~ ') * fa.' ~ q(column)) %}
    {%- do norm_b.append('cast(fb.' ~ q(column) ~ ' as ' ~ double ~ ') * fb.' ~ q(column)) %}
    {%- endfor %}
    select n.rm_a, n.rm_b, ({{ dot | join(' + ') }}) / (sqrt({{ norm_a | join(' + ') }}) * sqrt({{ norm_b | join(' + ') }})) as rm_similarity
    from rm_needed as n
    inner join {{ item_features }} as fa
        on fa.{{ q(features_item) }} = n.rm_a
    inner join {{ item_features }} as fb
        on fb.{{ q(features_item) }} = n.rm_b
    {%- else %}
    -- co-occurrence: the users with both items in train over sqrt(t_a t_b); a pair never seen
    -- together has no row (similarity 0). Counted over each user's history first (the pairs of
    -- the needed items it holds), then kept where needed: the work grows with the histories,
    -- never with a popular item's users times the pairs it is in (joined the other way round,
    -- 100K lists over 1M train rows took 170 s)
    select c.rm_a, c.rm_b, c.rm_users / sqrt(cast(ia.rm_rows as {{ double }}) * ib.rm_rows) as rm_similarity
    from (
        select t1.rm_item as rm_a, t2.rm_item as rm_b, count(*) as rm_users
        from rm_needed_train as t1
        inner join rm_needed_train as t2
            on t1.rm_user = t2.rm_user
        group by t1.rm_item, t2.rm_item
    ) as c
    inner join rm_needed as n
        on n.rm_a = c.rm_a and n.rm_b = c.rm_b
    inner join rm_train_items as ia
        on ia.rm_item = c.rm_a
    inner join rm_train_items as ib
        on ib.rm_item = c.rm_b
    {%- endif %}
),
{%- endif %}
{%- if 'diversity' in asked %}
rm_user_diversity as (
    {%- set recommenders = asked.diversity == 'recommenders' %}
    -- per user and k: {{ '1 - the mean similarity of its pairs (users with a pair)' if recommenders
                          else 'the dissimilarity summed over its pairs, over the list length (every user)' }}
    select {{ rank_metrics._column_prefix(quoted_by, 'u') }}u.k, u.rm_user,
        {%- if recommenders %}
        1 - p.rm_similarity / p.rm_pairs as rm_diversity
        {%- else %}
        (coalesce(p.rm_pairs, 0) - coalesce(p.rm_similarity, 0)) / cast(u.rm_length as {{ double }}) as rm_diversity
        {%- endif %}
    from rm_user_lists as u
    {{ 'inner' if recommenders else 'left' }} join (
        select {{ rank_metrics._column_prefix(quoted_by, 'p') }}ks.k, p.rm_user, count(*) as rm_pairs, sum(coalesce(s.rm_similarity, 0)) as rm_similarity
        from rm_pairs as p
        cross join rm_ks as ks
        left join rm_similar as s
            on s.rm_a = p.rm_a and s.rm_b = p.rm_b
        where p.rm_last <= ks.k
        group by {{ rank_metrics._column_prefix(quoted_by, 'p') }}ks.k, p.rm_user
    ) as p
        on {{ rank_metrics._equal_prefix(quoted_by, 'u', 'p') }}u.k = p.k and u.rm_user = p.rm_user
),
{%- endif %}
{%- if 'serendipity' in asked %}
rm_user_serendipity as (
    {%- set recommenders = asked.serendipity == 'recommenders' %}
    -- per user with train rows and k: {{ 'the mean over its entries of (1 - the mean similarity to its train rows) x relevance'
                                            if recommenders else '1 - the similarity of its relevant entries to its train rows, over their number (users with a relevant entry)' }}
    select {{ rank_metrics._column_prefix(quoted_by, 'e') }}ks.k, e.rm_user,
        {%- if recommenders %}
        sum((1 - e.rm_similarity / e.rm_seen) * e.rm_relevant) / cast(count(*) as {{ double }}) as rm_serendipity
        {%- else %}
        1 - sum(e.rm_similarity * e.rm_relevant) / max(e.rm_seen) as rm_serendipity
        {%- endif %}
    from (
        -- each listed entry of a user with train rows: the sum of its similarity to them, their number, its relevance
        select {{ rank_metrics._column_prefix(quoted_by, 'h') }}h.rm_user, h.rm_position, count(*) as rm_seen, sum(coalesce(s.rm_similarity, 0)) as rm_similarity,
            {%- if truth is not none %}
            max(case when r.rm_item is null then 0 else 1 end) as rm_relevant
            {%- else %}
            1 as rm_relevant
            {%- endif %}
        from rm_history as h
        left join rm_similar as s
            on s.rm_a = h.rm_item and s.rm_b = h.rm_before
        {%- if truth is not none %}
        left join (
            select distinct {{ q(truth_user) }} as rm_user, {{ q(truth_item) }} as rm_item
            from {{ truth }} as rm_r
        ) as r
            on r.rm_user = h.rm_user and r.rm_item = h.rm_item
        {%- endif %}
        group by {{ rank_metrics._column_prefix(quoted_by, 'h') }}h.rm_user, h.rm_position
    ) as e
    cross join rm_ks as ks
    where e.rm_position <= ks.k
    group by {{ rank_metrics._column_prefix(quoted_by, 'e') }}ks.k, e.rm_user
    {%- if not recommenders %}
    having sum(e.rm_relevant) > 0
    {%- endif %}
),
{%- endif %}
{%- set per_user_sources = {'novelty': 'rm_user_popularity', 'arp': 'rm_user_popularity', 'arp_normalized': 'rm_user_popularity',
                            'diversity': 'rm_user_diversity', 'serendipity': 'rm_user_serendipity'} %}
{%- set user_metrics = [] %}
{%- for entry in metrics if entry.metric in per_user_sources and (entry.metric != 'novelty' or entry.definition == 'evidently') %}
{%- do user_metrics.append(entry.metric) %}
{%- endfor %}
{%- if per_user %}
rm_result as (
    select {{ rank_metrics._column_prefix(quoted_by, 'u') }}u.rm_user, u.k
        {%- for metric in user_metrics %},
        {{ 'c_' ~ metric }}.rm_{{ metric }} as {{ q(metric) }}
        {%- endfor %}
    from rm_user_lists as u
    {%- for metric in user_metrics %}
    left join {{ per_user_sources[metric] }} as {{ 'c_' ~ metric }}
        on {{ rank_metrics._equal_prefix(quoted_by, 'u', 'c_' ~ metric) }}u.k = {{ 'c_' ~ metric }}.k and u.rm_user = {{ 'c_' ~ metric }}.rm_user
    {%- endfor %}
)
select {{ by_list }}rm_user as {{ q(user) }}, k{% for metric in user_metrics %}, {{ q(metric) }}{% endfor %}
from rm_result
order by {{ by_list }}rm_user, k
{%- else %}
rm_rows as (
    {%- for entry in metrics %}
    {%- set metric, definition = entry.metric, entry.definition %}
    {{ 'union all' if not loop.first }}
    {%- if metric in user_metrics %}
    select {{ rank_metrics._column_prefix(quoted_by, 'g') }}g.k, {{ loop.index }} as rm_metric_order, {{ rank_metrics.string_literal(metric) }} as metric,
        v.rm_value as value, v.rm_std_error as std_error, coalesce(v.rm_users, 0) as n_users
    from rm_groups as g
    left join (
        select {{ by_list }}k, avg(rm_{{ metric }}) as rm_value, stddev_samp(rm_{{ metric }}) / sqrt(count(*)) as rm_std_error,
            count(*) as rm_users
        from {{ per_user_sources[metric] }}
        group by {{ by_list }}k
    ) as v
        on {{ rank_metrics._equal_prefix(quoted_by, 'g', 'v') }}g.k = v.k
    {%- else %}
    select {{ rank_metrics._column_prefix(quoted_by, 'g') }}g.k, {{ loop.index }} as rm_metric_order, {{ rank_metrics.string_literal(metric) }} as metric,
        {%- if metric == 'catalog_coverage' %}
        {{ 'c.rm_items' if definition == 'recommenders' else 'c.rm_known_items' }} / cast(tt.rm_items as {{ double }})
        {%- elif metric == 'distributional_coverage' %}
        (ln(cast(c.rm_slots as {{ double }})) - c.rm_count_logs / c.rm_slots) / {{ ln2 }}
        {%- elif metric == 'gini' %}
        case when c.rm_items > 1 then (2 * c.rm_ordered - (c.rm_items + 1) * c.rm_slots) / cast((c.rm_items - 1) * c.rm_slots as {{ double }}) end
        {%- elif metric == 'personalization' %}
        case when g.rm_n > 1 then 1 - (c.rm_squares - g.rm_n * g.k) / cast(g.k * g.rm_n * (g.rm_n - 1) as {{ double }}) end
        {%- elif metric == 'novelty' %}
        c.rm_surprisal / {{ ln2 }} / c.rm_slots
        {%- endif %} as value,
        cast(null as {{ double }}) as std_error, g.rm_n as n_users
    from rm_groups as g
    inner join rm_catalog as c
        on {{ rank_metrics._equal_prefix(quoted_by, 'g', 'c') }}g.k = c.k
    cross join rm_train_totals as tt
    {%- endif %}
    {%- endfor %}
)
select {{ by_list }}k, metric, cast(value as {{ double }}) as value, cast(std_error as {{ double }}) as std_error,
    cast(n_users as bigint) as n_users
from rm_rows
order by {{ by_list }}rm_metric_order, k
{%- endif %}
{%- endmacro %}

{#- An input as rows: a list-shaped one (shape.list) unnested, with its list positions under
    `position` (when given); any other as it is. -#}
{% macro _beyond_accuracy_rows(relation, shape, keep, item, position) -%}
    {%- if shape and shape.list -%}
        {%- set kept = [] -%}{%- for name in keep %}{% do kept.append(rank_metrics.quote_identifier(name)) %}{% endfor -%}
        {{- rank_metrics.unnest_list(relation, kept, rank_metrics.quote_identifier(item), shape.separator,
                                     rank_metrics.quote_identifier(position) if position is not none else none) -}}
    {%- else -%}{{ relation }}
    {%- endif -%}
{%- endmacro %}

{#- The first problem of the rows, as one row of text, or no row (the Python API's checks of
    what the query reads): train without rows, NULL ids or order values, and under
    similarity='features' a listed item (within the largest k) without a feature vector, or with
    a zero one. The item is shown as text; it is data, never SQL. -#}
{% macro _beyond_accuracy_problems(predictions, train, arguments, largest_k, order, descending, history=false, feature_columns=[], truth=none, item_features=none, shapes={}, item_is_text=false) -%}
{%- set q = rank_metrics.quote_identifier -%}
{%- set predictions = rank_metrics._beyond_accuracy_rows(predictions, shapes.get('predictions'), arguments.by + [arguments.user], arguments.item, 'rm_list_position') -%}
{%- set text = rank_metrics.type_string() -%}
{%- set a = arguments -%}
select problem
from (
    select 1 as rm_order, case when count(*) = 0 then {{ rank_metrics.string_literal('train has no rows: the metrics read the catalog, popularity and history from it') }} end as problem
    from {{ train }} as rm_t
    union all
    select 2, case when count(*) > 0 then {{ rank_metrics.string_literal('train has NULL in column ' ~ a.train_user ~ ' or ' ~ a.train_item ~ ' (user and item ids must be given)') }} end
    from {{ train }} as rm_t
    where {{ q(a.train_user) }} is null or {{ q(a.train_item) }} is null
    union all
    select 3, case when count(*) > 0 then {{ rank_metrics.string_literal('predictions has NULL in column ' ~ a.user ~ ' or ' ~ a.item ~ ' (user and item ids must be given)') }} end
    from {{ predictions }} as rm_p
    where {{ q(a.user) }} is null or {{ q(a.item) }} is null
    {%- if a.uses_features %}
    union all
    select 4, min(case when f.rm_item is null then {{ rank_metrics.string_literal('item_features has no row for the ') }} || l.rm_kind || cast(l.rm_item as {{ text }})
                                                   || {{ rank_metrics.string_literal(" (similarity='features' compares items by their feature vectors)") }}
                       when f.rm_norm = 0 or f.rm_norm is null then {{ rank_metrics.string_literal('item_features gives the ') }} || l.rm_kind || cast(l.rm_item as {{ text }})
                                                   || {{ rank_metrics.string_literal(" a zero (or NULL) feature vector, whose cosine with any other is undefined") }} end)
    from (
        select {{ rank_metrics.string_literal('listed item ') }} as rm_kind, rm_item, rm_user
        from (
            select {{ q(a.item) }} as rm_item, {{ q(a.user) }} as rm_user,
                row_number() over (partition by {% for name in a.by %}{{ q(name) }}, {% endfor %}{{ q(a.user) }} order by {{ q(order) }} {{ 'desc' if descending else 'asc' }}, {{ rank_metrics.text_in_byte_order(q(a.item)) if item_is_text else q(a.item) }} asc) as rm_position
            from {{ predictions }} as rm_p
        ) as n
        where rm_position <= {{ largest_k | int }}
        {%- if history %}
        union all
        -- serendipity compares each listed item with its user's train items
        select {{ rank_metrics.string_literal('train item ') }}, t.{{ q(a.train_item) }}, t.{{ q(a.train_user) }}
        from {{ train }} as t
        where t.{{ q(a.train_user) }} in (select {{ q(a.user) }} from {{ predictions }} as rm_p)
        {%- endif %}
    ) as l
    left join (
        select {{ q(a.features_item) }} as rm_item,
            {% for column in feature_columns %}{{ ' + ' if not loop.first }}abs(cast({{ q(column) }} as {{ rank_metrics.type_double() }})){% endfor %} as rm_norm
        from {{ item_features }} as rm_f
    ) as f
        on f.rm_item = l.rm_item
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
