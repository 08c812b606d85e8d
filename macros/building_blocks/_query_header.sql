{#- The comment every metric query starts with, so that whoever reads the SQL (a compiled dbt
    model, `rank-metrics sql`, a warehouse's query history) knows what made it: the macro, the
    package version, every option as resolved (a convention's included) and the plan chosen.
    Names and values come from the caller: each is shown on one line with anything that is not
    printable replaced, so nothing in them can end the comment. -#}

{#- The package's version: dbt_project.yml's (tests/test_sql_header.py keeps them equal). -#}
{% macro _package_version() -%}0.2.0{%- endmacro %}

{% macro _query_header(macro, plan, extra={}) -%}
    {%- set names = plan.names -%}
    {#- (a cutoff-free metric's own macro takes no k) -#}
    {%- set options = ([('k', plan.ks)] if plan.get('takes_k', true) else []) + [('metrics', plan.metrics)] -%}
    {%- for name in ['user', 'item', 'rank', 'score', 'relevance', 'truth_user', 'truth_item'] if names[name] is not none -%}
        {%- do options.append((name, names[name])) -%}
    {%- endfor -%}
    {%- for name in ['by', 'truth_by'] if names[name] -%}{%- do options.append((name, names[name])) -%}{%- endfor -%}
    {%- if plan.convention is not none -%}{%- do options.append(('convention', plan.convention)) -%}{%- endif -%}
    {%- for name in ['normalization', 'users', 'duplicates', 'tie_break', 'gain', 'gain_from', 'precision_denominator',
                     'recall_denominator', 'truth_scope'] -%}
        {%- do options.append((name, plan[name])) -%}
    {%- endfor -%}
    {%- if plan.relevance_threshold is not none -%}{%- do options.append(('relevance_threshold', plan.relevance_threshold)) -%}{%- endif -%}
    {%- if plan.mean != 'arithmetic' -%}{%- do options.append(('mean', plan.mean)) -%}{%- endif -%}
    {#- the options of a metric outside the family (the registry's), where it is asked -#}
    {%- set registry = {} -%}{%- do rank_metrics._metric_registry(registry) -%}
    {%- for metric in plan.metrics if not registry[metric].default -%}
        {%- for name in registry[metric].options if plan[name] is not none and (name, plan[name]) not in options -%}{%- do options.append((name, plan[name])) -%}{%- endfor -%}
    {%- endfor -%}
    {%- for name, value in extra.items() if value is not none -%}{%- do options.append((name, value)) -%}{%- endfor -%}
    {%- set shown = [] -%}
    {%- for name, value in options -%}{%- do shown.append(name ~ '=' ~ rank_metrics._shown_as_given(value)) -%}{%- endfor -%}
-- rank_metrics {{ rank_metrics._package_version() }}: {{ macro }}
-- options: {{ rank_metrics._printable(shown | join(', ')) }}
-- plan: {{ rank_metrics._plan_described(plan) }}
{% endmacro %}

{#- Every character that is not printable (a line break would end the comment) as '?'. -#}
{% macro _printable(text) -%}
    {%- for character in text -%}{{ character if character.isprintable() else '?' }}{%- endfor -%}
{%- endmacro %}

{#- The plan in words: how hits are counted and what the group means average over. -#}
{% macro _plan_described(plan) -%}
    {%- set parts = [] -%}
    {%- if plan.hits_as_bits or plan.hit_patterns -%}
        {%- do parts.append('hit positions in one 64-bit word (k <= 61)') -%}
    {%- elif plan.ks | max > 61 -%}
        {%- do parts.append('hits counted row by row (largest k ' ~ plan.ks | max ~ ' > 61)') -%}
    {%- elif (rank_metrics.engine_profile('bit_count') | trim) == '' -%}
        {%- do parts.append('hits counted row by row (the engine counts no bits)') -%}
    {%- else -%}
        {%- do parts.append('hits counted row by row') -%}
    {%- endif -%}
    {%- do parts.append('means over users with the same hit pattern counted once' if plan.hit_patterns else 'means over users') -%}
    {%- if plan.cutoff_free -%}
        {%- set labels = [] -%}
        {%- set registry = {} -%}{%- do rank_metrics._metric_registry(registry) -%}
        {%- for metric in plan.cutoff_free %}{% do labels.append(registry[metric].label) %}{% endfor -%}
        {%- do parts.append('lists read ' ~ ('past the largest k, as far as each user\'s R' if plan.cutoff_free == ['r_precision'] else 'whole, past the largest k')
                            ~ (', whose ' ~ labels | join(' and ') ~ ' ' ~ ('is' if labels | length == 1 else 'are') ~ ' averaged per user beside the patterns' if plan.hit_patterns else '')) -%}
    {%- endif -%}
    {%- if plan.judged_rows -%}
        {%- do parts.append('lists meet every truth row, judged non-relevant ones too') -%}
    {%- endif -%}
    {%- if plan.tie_break == 'average' -%}
        {%- do parts.append('each tie group at every one of its positions, by its chance of being there') -%}
    {%- endif -%}
    {%- if 'dcg' in plan.sums -%}
        {%- do parts.append('ideal DCG from the count of relevant items' if plan.ideal_from_m else 'ideal DCG from the ranked grades') -%}
    {%- endif -%}
    {{- parts | join('; ') -}}
{%- endmacro %}
