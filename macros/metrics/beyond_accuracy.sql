{#- Beyond accuracy: how much of the catalog the lists use, how popular, novel and varied they
    are, per group (by) and k, in one query (docs/definitions.md, "Beyond accuracy"). Inputs: the
    predictions (lists, cut at k), train (the (user, item) interactions the model learned from:
    the catalog, the items' popularity, each user's history and the co-occurrence similarity),
    optionally truth (serendipity's relevance: an item of the user's truth rows is relevant;
    without truth every item is) and item_features (an item column and numeric feature columns:
    the cosine similarity). Train is the same for every group. Each metric follows its
    `definition`: 'recommenders' (microsoft/recommenders 1.2) or 'evidently' (Evidently 0.7).
    The checks of the call's arguments, columns and rows: macros/building_blocks/_beyond_accuracy_inputs.sql. -#}

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

{#- The query. `metrics`: [{'metric', 'definition'}] in the order of the result's rows; `by`,
    `user`, `item`, `order`, `train_user`, `train_item`, `truth_user`, `truth_item`,
    `features_item` and `feature_columns` are column names (quoted here); `descending`: the
    order column is a score; `ks` whole numbers 1 or more. With `per_user`, a row per group,
    user and k with each per-user metric's column instead of the group rows. With `comparison`
    (_comparison_options' and _beyond_accuracy_comparison's), compare's rows instead: the models
    (by's first column) against the baseline on the per-user metrics, users paired within a
    segment (by's other columns) when both sides have a value. -#}
{% macro _beyond_accuracy_query(predictions, train, ks, metrics, by, user, item, order, descending, train_user, train_item,
                               truth=none, truth_user=none, truth_item=none, item_features=none, features_item=none,
                               feature_columns=[], similarity='cooccurrence', item_is_text=false, per_user=false, shapes={},
                               comparison=none, order_type=none, relevance=none) -%}
{%- set q = rank_metrics.quote_identifier -%}
{%- set predictions = rank_metrics._beyond_accuracy_rows(predictions, shapes.get('predictions'), by + [user], item, 'rm_list_position') -%}
{%- set truth = rank_metrics._beyond_accuracy_rows(truth, shapes.get('truth'), [truth_user], truth_item, none) if truth is not none else none -%}
{%- set double = rank_metrics.type_double() -%}
{%- set quoted_by = [] -%}{%- for name in by %}{% do quoted_by.append(q(name)) %}{% endfor -%}
{%- set by_list = quoted_by | join(', ') ~ (', ' if by else '') -%}
{%- set asked = {} -%}{%- for entry in metrics %}{% do asked.update({entry.metric: entry.definition}) %}{% endfor -%}
{%- set similar = 'diversity' in asked or 'serendipity' in asked -%}
{%- set ln2 = 'ln(cast(2 as ' ~ double ~ '))' -%}
{%- set shown = ['k=' ~ rank_metrics._shown_as_given(ks | list)] -%}
{%- for entry in metrics %}{% do shown.append(entry.metric ~ '=' ~ entry.definition) %}{% endfor -%}
{%- set listed = (shapes.get('predictions') or {}).get('list') -%}
{%- for name, value in [('by', by), ('user', user), ('item', item), (('score' if descending else 'rank'), none if listed else order), ('train_user', train_user),
                        ('train_item', train_item), ('similarity', similarity if similar else none)] if value -%}
    {%- do shown.append(name ~ '=' ~ rank_metrics._shown_as_given(value)) -%}
{%- endfor -%}
{%- if comparison %}
{%- for name in ['baseline', 'test', 'correction', 'family', 'alpha'] %}{% do shown.append(name ~ '=' ~ rank_metrics._shown_as_given(comparison[name])) %}{% endfor %}
{%- endif %}
-- rank_metrics {{ rank_metrics._package_version() }}: {{ 'compare_beyond_accuracy' if comparison else 'beyond_accuracy' ~ ('_users' if per_user else '') }}
-- options: {{ rank_metrics._printable(shown | join(', ')) }}
with rm_ks as (
    {%- for k in ks %}
    select cast({{ k | int }} as bigint) as k{{ ' union all' if not loop.last }}
    {%- endfor %}
),
{%- set cut = ks | max | int %}
{%- if listed %}
rm_listed as (
    -- each list's entries within the largest k: a list's order is its positions
    select {{ by_list }}{{ q(user) }} as rm_user, {{ q(item) }} as rm_item, {{ q(order) }} as rm_position
    from {{ predictions }} as rm_p
    where {{ q(order) }} <= {{ cut }}
),
{#- (where CTEs are inlined, as on Spark, the check's aggregate would run at each of
    rm_listed's readers, and a compare's plan of them filled Spark's heap) -#}
{%- elif not descending and rank_metrics._is_integer_type(order_type) | trim == 'True' and rank_metrics.engine_profile('ctes_once') %}
rm_lists as (
    -- one row per list: 1 when the ranks within the largest k are its positions 1..min(n, k)
    -- (ranks_are_positions), as most rank columns hold, so that those lists need no sort
    select {{ by_list }}{{ q(user) }} as rm_user,
        {{ rank_metrics._ranks_are_positions(q(order), q(order), cut) }} as rm_rank_is_position
    from {{ predictions }} as rm_p
    group by {{ by_list }}{{ q(user) }}
),
rm_listed as (
    -- each list's entries within the largest k at their positions: the ranks, where they are
    -- positions; the other lists numbered in list order (ties by item)
    select {{ rank_metrics._column_prefix(quoted_by, 'p') }}p.{{ q(user) }} as rm_user, p.{{ q(item) }} as rm_item, p.{{ q(order) }} as rm_position
    from {{ predictions }} as p
    inner join rm_lists as l
        on {{ rank_metrics._equal_prefix(quoted_by, 'p', 'l') }}p.{{ q(user) }} = l.rm_user and l.rm_rank_is_position = 1
    where p.{{ q(order) }} <= {{ cut }}
    union all
    {{ rank_metrics._beyond_accuracy_numbered(predictions, quoted_by, user, item, order, descending, item_is_text, cut, 'rm_lists') }}
),
{%- else %}
rm_listed as (
    {{ rank_metrics._beyond_accuracy_numbered(predictions, quoted_by, user, item, order, descending, item_is_text, cut) }}
),
{%- endif %}
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
    -- per group and k, its lists: each list has one entry at position 1, within every k (a count
    -- of these few rows, not of every slot by user)
    select {{ rank_metrics._column_prefix(quoted_by, 'l') }}ks.k, count(*) as rm_n
    from rm_listed as l
    cross join rm_ks as ks
    where l.rm_position = 1
    group by {{ rank_metrics._column_prefix(quoted_by, 'l') }}ks.k
),
{#- train's rows, read where each use needs them: as a CTE read twice DuckDB stored all of
    them first (10M rows: a third of ARP's query) -#}
{%- set train_rows = '(select ' ~ q(train_user) ~ ' as rm_user, ' ~ q(train_item) ~ ' as rm_item from ' ~ train ~ ' as rm_t)' %}
{#- the distinct users of each train item (u_i) and of train (U) are counted only for the
    metrics that read them: over 10M train rows those counts are most of the query's time -#}
{%- set popularity = 'arp' in asked or 'arp_normalized' in asked or asked.get('novelty') == 'evidently' %}
{%- set train_users = asked.get('novelty') == 'evidently' %}
{%- if popularity %}
rm_train_pairs as (
    -- each (item, user) of train once, with its rows: u_i is then a count of rows, which DuckDB
    -- makes in 0.94 s over 10M train rows against count(distinct)'s 1.27 s
    select rm_item, rm_user, count(*) as rm_rows
    from {{ train_rows }} as t
    group by rm_item, rm_user
),
{%- endif %}
rm_train_items as (
    -- each train item's rows (t_i){{ ' and distinct users (u_i)' if popularity }}
    select rm_item, {{ 'sum(rm_rows) as rm_rows, count(*) as rm_users' if popularity else 'count(*) as rm_rows' }}
    from {{ 'rm_train_pairs' if popularity else train_rows ~ ' as t' }}
    group by rm_item
),
rm_train_totals as (
    select i.rm_rows, i.rm_items{{ ', i.rm_most_users' if popularity }}{{ ', u.rm_users' if train_users }}
    from (select sum(rm_rows) as rm_rows, count(*) as rm_items{{ ', max(rm_users) as rm_most_users' if popularity }} from rm_train_items) as i
    {%- if train_users %}
    cross join (select count(distinct rm_user) as rm_users from {{ train_rows }} as t) as u
    {%- endif %}
),
rm_catalog as (
    -- per group and k, over the recommended items with their slot counts c (ascending: j)
    select {{ rank_metrics._column_prefix(quoted_by, 's') }}s.k,
        count(*) as rm_items,
        count(ti.rm_item) as rm_known_items,
        sum(s.rm_count) as rm_slots,
        sum(s.rm_count * s.rm_count) as rm_squares,
        {{ rank_metrics.sum_of_values('s.rm_count * ln(cast(s.rm_count as ' ~ double ~ '))', any_size=true) }} as rm_count_logs,
        sum(s.rm_order * s.rm_count) as rm_ordered,
        {{ rank_metrics.sum_of_values('case when ti.rm_item is not null then s.rm_count * (ln(cast(tt.rm_rows as ' ~ double ~ ')) - ln(cast(ti.rm_rows as '
                                      ~ double ~ '))) else 0 end', any_size=true) }} as rm_surprisal
    from (
        select {{ by_list }}k, rm_item, rm_count,
            -- (items tied in count give the same sum in either order; the item makes it one order)
            row_number() over (partition by {{ by_list }}k order by rm_count, rm_item) as rm_order
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
        {#- sums that give the same digits every run: the counts' in integers, the logs' exact
            (an exact mean of each cost 50% more at 10M lists) #}
        {{ rank_metrics.sum_of_values('(ln(cast(tt.rm_users as ' ~ double ~ ')) - ln(cast(ti.rm_users as ' ~ double ~ '))) / ' ~ ln2) }}
            / cast(count(*) as {{ double }}) as rm_novelty,
        {%- endif %}
        cast(sum(ti.rm_users) as {{ double }}) / cast(count(*) as {{ double }}) as rm_arp,
        cast(sum(ti.rm_users) as {{ double }}) / cast(count(*) * max(tt.rm_most_users) as {{ double }}) as rm_arp_normalized
    from rm_slots as s
    inner join rm_train_items as ti
        on s.rm_item = ti.rm_item
    cross join rm_train_totals as tt
    group by {{ rank_metrics._column_prefix(quoted_by, 's') }}s.k, s.rm_user
),
{%- endif %}
{%- if similar %}
rm_item_pairs as (
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
    inner join {{ train_rows }} as t
        on l.rm_user = t.rm_user
),
rm_needed as (
    -- the item pairs whose similarity the lists need, and no other (distinct, not a bare union,
    -- which BigQuery refuses)
    select distinct rm_a, rm_b
    from (
        select rm_a, rm_b from rm_item_pairs
        union all
        select rm_item, rm_before from rm_history
    ) as n
),
{%- if similarity != 'features' %}
rm_needed_train as (
    -- the (user, item) pairs of train, once each, of the items the needed pairs name
    select distinct rm_user, rm_item
    from {{ train_rows }} as t
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
        select {{ rank_metrics._column_prefix(quoted_by, 'p') }}ks.k, p.rm_user, count(*) as rm_pairs, {{ rank_metrics.sum_of_values('coalesce(s.rm_similarity, 0)') }} as rm_similarity
        from rm_item_pairs as p
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
        {{ rank_metrics.sum_of_values('(1 - e.rm_similarity / e.rm_seen) * e.rm_relevant') }} / cast(count(*) as {{ double }}) as rm_serendipity
        {%- else %}
        1 - {{ rank_metrics.sum_of_values('e.rm_similarity * e.rm_relevant') }} / max(e.rm_seen) as rm_serendipity
        {%- endif %}
    from (
        -- each listed entry of a user with train rows: the sum of its similarity to them, their number, its relevance
        select {{ rank_metrics._column_prefix(quoted_by, 'h') }}h.rm_user, h.rm_position, count(*) as rm_seen, {{ rank_metrics.sum_of_values('coalesce(s.rm_similarity, 0)', compact=true) }} as rm_similarity,
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
            {%- if relevance is not none %}
            where {{ q(relevance) }} > 0
            {%- endif %}
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
{%- if per_user or comparison %}
rm_user_metrics as (
    -- a row per user with a list: its value of each per-user metric, NULL where it has none
    select {{ rank_metrics._column_prefix(quoted_by, 'u') }}u.rm_user, u.k
        {%- for metric in user_metrics %},
        {{ 'c_' ~ metric }}.rm_{{ metric }}
        {%- endfor %}
    from rm_user_lists as u
    {%- for metric in user_metrics %}
    left join {{ per_user_sources[metric] }} as {{ 'c_' ~ metric }}
        on {{ rank_metrics._equal_prefix(quoted_by, 'u', 'c_' ~ metric) }}u.k = {{ 'c_' ~ metric }}.k and u.rm_user = {{ 'c_' ~ metric }}.rm_user
    {%- endfor %}
)
{%- if comparison %},
{#- every per-user metric is partial: a user without a value is left out of its pairs -#}
{%- set metric_columns = {} %}{% for metric in user_metrics %}{% do metric_columns.update({metric: 'rm_' ~ metric}) %}{% endfor %}
{{ rank_metrics._paired_comparison({'metrics': user_metrics, 'metric_columns': metric_columns, 'partial': user_metrics, 'cutoff_free': []},
                                   quoted_by[0], quoted_by[1:], comparison.literal, comparison) }}
{%- else %}
select {{ by_list }}rm_user as {{ q(user) }}, k{% for metric in user_metrics %}, rm_{{ metric }} as {{ q(metric) }}{% endfor %}
from rm_user_metrics
order by {{ by_list }}rm_user, k
{%- endif %}
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
        {#- the exact mean, and the spread summed around it, as evaluate's (avg and stddev_samp
            sum in the order DuckDB's threads finish: the last digits changed between runs) #}
        select {{ by_list }}k, max(rm_mean) as rm_value,
            {{ rank_metrics._weighted_std_error('rm_' ~ metric, 'rm_mean', '1') }} as rm_std_error, count(*) as rm_users
        from (
            select u.*, {{ rank_metrics._weighted_mean('rm_' ~ metric, 'over (partition by ' ~ by_list ~ 'k)', '1') }} as rm_mean
            from {{ per_user_sources[metric] }} as u
        ) as u
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
{#- Each list's entries within `cut`, numbered in list order (ties by item); with `checked`
    (rm_lists), only the lists whose ranks are not their positions. -#}
{% macro _beyond_accuracy_numbered(predictions, quoted_by, user, item, order, descending, item_is_text, cut, checked=none) -%}
{%- set q = rank_metrics.quote_identifier -%}
{%- set item_key = rank_metrics.text_in_byte_order('p.' ~ q(item)) if item_is_text else 'p.' ~ q(item) -%}
select {{ rank_metrics._column_prefix(quoted_by) }}rm_user, rm_item, rm_position
from (
    select {{ rank_metrics._column_prefix(quoted_by, 'p') }}p.{{ q(user) }} as rm_user, p.{{ q(item) }} as rm_item,
        row_number() over (partition by {{ rank_metrics._column_prefix(quoted_by, 'p') }}p.{{ q(user) }}
                           order by p.{{ q(order) }} {{ 'desc' if descending else 'asc' }}, {{ item_key }} asc) as rm_position
    from {{ predictions }} as p
    {%- if checked %}
    inner join {{ checked }} as l
        on {{ rank_metrics._equal_prefix(quoted_by, 'p', 'l') }}p.{{ q(user) }} = l.rm_user and l.rm_rank_is_position = 0
    {%- endif %}
) as n
where rm_position <= {{ cut }}
{%- endmacro %}

{% macro _beyond_accuracy_rows(relation, shape, keep, item, position) -%}
    {%- if shape and shape.list -%}
        {%- set kept = [] -%}{%- for name in keep %}{% do kept.append(rank_metrics.quote_identifier(name)) %}{% endfor -%}
        {{- rank_metrics.unnest_list(relation, kept, rank_metrics.quote_identifier(item), shape.separator,
                                     rank_metrics.quote_identifier(position) if position is not none else none) -}}
    {%- else -%}{{ relation }}
    {%- endif -%}
{%- endmacro %}
