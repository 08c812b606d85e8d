{#- The options of the metric macros, resolved and checked before any input is read: the
    choices and a convention's preset (_option_values), the arguments only some macros take,
    the option names the messages list, and what is wrong with k. -#}

{#- The options whose values are a choice, a preset, k, metrics and confidence: resolved into
    `plan`, checked. Its own macro so that Python checks them before reading any input (a bad
    convention beside a missing file was said as the missing file). -#}
{% macro _option_values(plan, k, normalization=none, users=none, duplicates=none, tie_break=none, convention=none,
                        gain=none, gain_from=none, precision_denominator=none, recall_denominator=none,
                        truth_scope=none, metrics=none, confidence=none, mean=none, auc_weight=none) %}
    {#- each peer's preset (SPEC §1 and §6): every option, so that a convention means one thing -#}
    {%- set family = {'gain': 'linear', 'gain_from': 'graded', 'precision_denominator': 'k', 'recall_denominator': 'm', 'truth_scope': 'all',
                      'mean': 'arithmetic', 'auc_weight': 'users'} -%}
    {%- set conventions = {
        'ml_metrics':   dict(family, normalization='min_m_k', duplicates='first',    users='predictions', tie_break='item'),
        'kaggle':       dict(family, normalization='min_m_k', duplicates='first',    users='truth',       tie_break='item'),
        'spark':        dict(family, normalization='min_m_k', duplicates='all',      users='predictions', tie_break='item', gain='binary'),
        'recommenders': dict(family, normalization='min_m_k', duplicates='all',      users='both',        tie_break='item', gain='binary'),
        'trec_eval':    dict(family, normalization='m',       duplicates='error',    users='both',        tie_break='item_desc'),
        'ranx':         dict(family, normalization='m',       duplicates='collapse', users='judged',      tie_break='item', gain_from='relevant'),
        'torchmetrics': dict(family, normalization='hits',    duplicates='all',      users='predictions', tie_break='item', truth_scope='listed'),
        'evidently':    dict(family, normalization='m',       duplicates='all',      users='truth',       tie_break='item', truth_scope='listed', precision_denominator='list_length'),
        'sklearn':      dict(family, normalization='m',       duplicates='error',    users='predictions', tie_break='average', truth_scope='listed'),
    } -%}
    {%- set choices = {
        'normalization': ['min_m_k', 'm', 'hits'],
        'users': ['truth', 'predictions', 'judged', 'both', 'union'],
        'duplicates': ['first', 'collapse', 'all', 'error'],
        'tie_break': ['item', 'item_desc', 'average'],
        'gain': ['linear', 'exponential', 'binary', 'graded'],
        'gain_from': ['graded', 'relevant'],
        'precision_denominator': ['k', 'list_length'],
        'recall_denominator': ['m', 'min_m_k'],
        'truth_scope': ['all', 'listed'],
        'mean': ['arithmetic', 'geometric'],
        'auc_weight': ['users', 'impressions'],
    } -%}

    {#- convention: a preset; options passed explicitly still win -#}
    {%- if convention is not none and convention not in conventions -%}
        {{ exceptions.raise_compiler_error("rank_metrics: " ~ rank_metrics._mention('convention', convention) ~ " must be one of " ~ rank_metrics._shown(conventions | list | sort) ~ "; got " ~ rank_metrics._shown(convention)
            ~ rank_metrics._meant(convention, conventions | list | sort)) }}
    {%- endif -%}
    {%- set preset = conventions[convention] if convention is not none else conventions['kaggle'] -%}
    {%- set given = {'normalization': normalization, 'users': users, 'duplicates': duplicates, 'tie_break': tie_break,
                     'gain': gain, 'gain_from': gain_from, 'precision_denominator': precision_denominator,
                     'recall_denominator': recall_denominator, 'truth_scope': truth_scope, 'mean': mean, 'auc_weight': auc_weight} -%}
    {%- for option, allowed in choices.items() -%}
        {%- set value = given[option] if given[option] is not none else preset[option] -%}
        {%- if value not in allowed -%}
            {{ exceptions.raise_compiler_error("rank_metrics: " ~ rank_metrics._mention(option, value) ~ " must be one of " ~ rank_metrics._shown(allowed) ~ "; got " ~ rank_metrics._shown(value)
                ~ rank_metrics._meant(value, allowed)) }}
        {%- endif -%}
        {%- do plan.update({option: value}) -%}
    {%- endfor -%}
    {#- ties by expectation read each item once (SPEC §6b's example takes tie_break alone): left
        to the preset, duplicates is then 'error', a repeated item said; given, it is checked -#}
    {%- if plan.tie_break == 'average' and duplicates is none and plan.duplicates not in ['collapse', 'error'] -%}
        {%- do plan.update({'duplicates': 'error', 'duplicates_for_ties': true}) -%}
    {%- endif -%}
    {#- the options the convention set (for messages that name where a value came from) -#}
    {%- do plan.update({'convention': convention,
                        'preset_options': given | dictsort | selectattr(1, 'none') | map(attribute=0) | list if convention is not none else []}) -%}

    {#- k: several are computed in one pass -#}
    {%- set k_problem = rank_metrics._k_problem(k) -%}
    {%- if k_problem -%}
        {{ exceptions.raise_compiler_error("rank_metrics: " ~ k_problem) }}
    {%- endif -%}
    {%- set k_list = [k] if (k is not iterable or k is string) else k -%}
    {%- do plan.update({'ks': k_list | unique | sort | list}) -%}

    {#- metrics: the registry's names, each computed once, in its order; without metrics=, the
        family of SPEC §6 (the registry's defaults) -#}
    {%- set known_metrics = (rank_metrics._metric_names() | trim).split(' ') -%}
    {%- set metric_list = (rank_metrics._metric_names(defaults_only=true) | trim).split(' ') if metrics is none
                          else ([metrics] if metrics is string else metrics | list) -%}
    {%- if metric_list | length == 0 -%}
        {{ exceptions.raise_compiler_error("rank_metrics: " ~ rank_metrics._mention('metrics', metric_list) ~ " must name at least one of " ~ rank_metrics._shown(known_metrics) ~ "; got an empty list") }}
    {%- endif -%}
    {%- for name in metric_list if name not in known_metrics -%}
        {{ exceptions.raise_compiler_error("rank_metrics: " ~ rank_metrics._mention('metrics', name) ~ ": unknown metric " ~ rank_metrics._shown(name) ~ rank_metrics._meant(name, known_metrics)
            ~ "; the metrics are " ~ rank_metrics._shown(known_metrics)) }}
    {%- endfor -%}
    {%- do plan.update({'metrics': known_metrics | select('in', metric_list) | list}) -%}

    {#- confidence: of the interval around each mean (SPEC §7), strictly between 0 and 1 -#}
    {%- set confidence = 0.95 if confidence is none else confidence -%}
    {%- if confidence is not number or confidence is boolean or not rank_metrics._spells_a_number(confidence) | trim
            or not (confidence > 0 and confidence < 1) -%}
        {{ exceptions.raise_compiler_error("rank_metrics: " ~ rank_metrics._mention('confidence', confidence) ~ " must be a number between 0 and 1 (0.95 for a 95% interval); got " ~ rank_metrics._shown(confidence)) }}
    {%- endif -%}
    {%- set confidence = confidence | float -%}
    {%- do plan.update({'confidence': confidence, 'z': rank_metrics._normal_quantile_of_confidence(confidence) | float}) -%}
{% endmacro %}

{#- tie_break='average' (SPEC §6b) scores a tie group by the expected value over its orders, which
    the plan computes for the metrics that add a value per position (NDCG, precision, recall, hit
    rate), over lists that hold each item once. Checked where a query computes metrics
    (_one_pass): the data checks' plans name no metrics. -#}
{% macro _check_ties_by_expectation(plan) %}
    {%- if plan.tie_break == 'average' -%}
        {%- set supported = ['ndcg', 'precision', 'recall', 'hit_rate'] -%}
        {%- set others = plan.metrics | reject('in', supported) | list -%}
        {%- set given = 'tie_break' not in plan.preset_options -%}
        {%- set said = rank_metrics._mention('tie_break', 'average', 'value') ~ ('' if given else ' (the ' ~ plan.convention ~ ' convention)') -%}
        {%- if others -%}
            {{ exceptions.raise_compiler_error("rank_metrics: " ~ said ~ " scores ties by their expected value for " ~ rank_metrics._shown(supported)
                ~ " only; it has none for " ~ rank_metrics._shown(others) ~ ": name only those in " ~ rank_metrics._mention('metrics', plan.metrics, 'equals')
                ~ " (or use their own functions), or break ties by item") }}
        {%- endif -%}
        {%- if plan.duplicates not in ['collapse', 'error'] -%}
            {{ exceptions.raise_compiler_error("rank_metrics: " ~ said ~ " needs each item once in a list: pass " ~ rank_metrics._mention('duplicates', 'collapse', 'value')
                ~ " (an item keeps its best place) or " ~ rank_metrics._mention('duplicates', 'error', 'value') ~ "; got " ~ rank_metrics._mention('duplicates', plan.duplicates, 'value')) }}
        {%- endif -%}
    {%- endif -%}
{% endmacro %}

{#- The arguments that only some public macros take: given to another, they would be dropped
    without a word (map_at_k(metrics=['ndcg']) would still be MAP), so they fail instead. -#}
{% macro _macro_arguments(macro, options) %}
    {%- set taken_by = {'metrics': ['evaluate', 'evaluate_users', 'compare'], 'confidence': ['evaluate'],
                        'baseline': ['compare'], 'test': ['compare'], 'correction': ['compare'], 'family': ['compare'], 'alpha': ['compare']} -%}
    {%- for name, macros in taken_by.items() -%}
        {%- if options.get(name) is not none and macro not in macros -%}
            {{ exceptions.raise_compiler_error("rank_metrics: " ~ macro ~ " takes no " ~ rank_metrics._mention(name, options[name]) ~ " (" ~ name ~ " is an argument of "
                ~ macros | join(', ') ~ "); got " ~ rank_metrics._mention(name, options[name], 'value')) }}
        {%- endif -%}
    {%- endfor -%}
    {#- a geometric mean is of a group's values: what gives a row per user, or compares paired
        users' arithmetic means, has none to take -#}
    {#- so is AUC's mean weighted by the users' impressions (GAUC's auc_weight='impressions') -#}
    {%- if options.get('auc_weight') == 'impressions' and macro in ['evaluate_users', 'average_precision_at_k', 'compare'] -%}
        {{ exceptions.raise_compiler_error("rank_metrics: " ~ macro ~ " takes no " ~ rank_metrics._mention('auc_weight', 'impressions', 'value') ~ ": it weights a group's mean of AUC by each user's list length, which "
            ~ ("compare does not take: it tests the arithmetic mean of the paired users' differences" if macro == 'compare' else macro ~ " does not take (a row per user)")
            ~ "; evaluate and auc_at_k take it") }}
    {%- endif -%}
    {%- if options.get('mean') == 'geometric' and macro in ['evaluate_users', 'average_precision_at_k', 'compare'] -%}
        {{ exceptions.raise_compiler_error("rank_metrics: " ~ macro ~ " takes no " ~ rank_metrics._mention('mean', 'geometric', 'value') ~ ": it is a mean of a group's values, which "
            ~ ("compare tests as arithmetic means of the paired users' differences" if macro == 'compare' else macro ~ " does not take (a row per user)")
            ~ "; evaluate and the metric functions (the <metric>_at_k) take it") }}
    {%- endif -%}
{% endmacro %}

{#- The options every metric macro takes, as the messages list them. -#}
{% macro _option_names() -%}
    {#- one line: dbt prints a message's line breaks as they are (a user's trial) -#}
    {{- ['user', 'item', 'rank', 'score', 'relevance', 'by', 'truth_by', 'truth_user', 'truth_item', 'normalization', 'users',
         'duplicates', 'tie_break', 'convention', 'gain', 'gain_from', 'precision_denominator', 'recall_denominator',
         'truth_scope', 'relevance_threshold', 'persistence', 'max_grade', 'auc_weight', 'mean', 'predictions_shape',
         'truth_shape', 'item_separator'] | join(', ') -}}
{%- endmacro %}

{#- What is wrong with k, as a sentence ('' when nothing): it must be a positive integer or a
    non-empty list of them, each within the engines' bigint. The metric macros and the release
    gates (which name themselves first) both say it. -#}
{% macro _k_problem(k) -%}
    {%- set k_list = [k] if (k is not iterable or k is string) else k -%}
    {%- if k_list | length == 0 -%}
    {{ rank_metrics._mention('k', k) }} must be a positive integer or a non-empty list of them; got an empty list
    {%- else -%}
        {%- for one_k in k_list if one_k is not integer or one_k is boolean or one_k < 1 or one_k > 9223372036854775807 -%}
            {%- if loop.first and (one_k is not integer or one_k is boolean or one_k < 1) -%}
    {{ rank_metrics._mention('k', one_k) }} must be a positive integer or a non-empty list of them; got {{ rank_metrics._shown(one_k) }}
            {%- elif loop.first -%}
    {{ rank_metrics._mention('k', one_k) }} must be at most 9223372036854775807 (the engines' bigint); got {{ one_k }}
            {%- endif -%}
        {%- endfor -%}
    {%- endif -%}
{%- endmacro %}
