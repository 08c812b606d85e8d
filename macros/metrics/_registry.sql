{#- The metric registry: the one list of the family's metrics, in the order results list them.
    The plan, the public macros, Python's API and command line, the reference's columns and the
    dbt docs all read it. Each metric has:
      macro         its public macro (and Python function): a row per group and k
      group_column  the column of that row holding the metric
      user_column   its column per user (evaluate_users, compare)
      label         its name in prose
      options       the options that change this metric only (a command of another metric
                    refuses them)
      sums          what it needs of the one pass, per user and k: hits (the hit count at k),
                    precision_sum (AP's sum of precision at each hit), dcg (DCG@k and IDCG@k),
                    first_hit (the first relevant position), rbp (RBP's sum of (1 - p) p^(i - 1)
                    over the relevant hits i), err (ERR's sum over the hits), hit_positions (the
                    sum of the relevant hits' positions), list_length (n(u), the list's length),
                    hits_within_r (R-precision's hits within the first R positions, and R),
                    bpref (bpref's value per user, from the judged items of the whole list),
                    judged_rbp (RBP's terms of the judged positions within k, for its residual)
      description   one sentence, and example a call, for dbt docs and docs/reference.md
      cutoff_free   (when true) the metric takes no k: one value per user, reported once with
                    k NULL; its macro and function are named without _at_k and take no k, and
                    `cutoff` says why, in the message that refuses one. Its sums are CTEs of
                    their own, rm_<sum> per (by, user), after the hits (_cutoff_free_sum)
      judged        (when true) the metric reads the judged non-relevant items too (truth rows
                    below the threshold), so the lists meet every truth row (plan.judged_rows)
      partial       (when true) the metric is undefined for some users (AUC without a relevant or
                    without a non-relevant item within k): their value is NULL, which no mean
                    averages, no n_users of the metric counts and compare does not pair
      default       whether evaluate, evaluate_users, compare and the report compute it when
                    metrics= is not given (the family of SPEC §6; the IR family's additions of
                    §6b when named)
    Adding a metric: an entry here, a branch in _per_user below (and, for a sum of a term per
    hit, in _hit_term and _hit_term_from_bits), its file in macros/metrics/
    (the per-user expression, default__<macro> and the public dbt macro), its values in
    python/rank_metrics/reference.py, a test; then `make docs` (CONTRIBUTING.md).
    A macro returns only text in plain Jinja: the caller passes a dict to fill. -#}
{% macro _metric_registry(registry) -%}
    {%- do registry.update({
        'map': {'macro': 'map_at_k', 'group_column': 'map_at_k', 'user_column': 'average_precision', 'label': 'MAP@k',
                'options': ['normalization'], 'default': true, 'sums': ['hits', 'precision_sum'],
                'description': 'MAP@k (mean average precision at k): the mean over the evaluated users of AP@k, the precision at each relevant hit within k over the normalization.',
                'example': "rank_metrics.map_at_k(predictions=ref('recs'), truth=ref('purchases'), k=[5, 12],\n                       user='customer_id', item='article_id', by=['model'])"},
        'ndcg': {'macro': 'ndcg_at_k', 'group_column': 'ndcg_at_k', 'user_column': 'ndcg', 'label': 'NDCG@k',
                 'options': ['gain', 'gain_from'], 'default': true, 'sums': ['hits', 'dcg'],
                 'description': 'NDCG@k: DCG@k over the ideal DCG@k, each hit adding its gain over log2(position + 1).',
                 'example': "rank_metrics.ndcg_at_k(predictions=ref('search_results'), truth=ref('judgments'), k=10,\n                        user='query_id', item='doc_id', score='score', relevance='grade',\n                        gain='exponential')"},
        'precision': {'macro': 'precision_at_k', 'group_column': 'precision_at_k', 'user_column': 'precision', 'label': 'Precision@k',
                      'options': ['precision_denominator'], 'default': true, 'sums': ['hits'],
                      'description': 'Precision@k: the relevant hits within k over k (or over the list length).',
                      'example': "rank_metrics.precision_at_k(predictions=ref('recs'), truth=ref('purchases'), k=[5, 10],\n                             by=['model'], precision_denominator='list_length')"},
        'recall': {'macro': 'recall_at_k', 'group_column': 'recall_at_k', 'user_column': 'recall', 'label': 'Recall@k',
                   'options': ['recall_denominator'], 'default': true, 'sums': ['hits'],
                   'description': 'Recall@k: the relevant hits within k over the number of relevant items m (or min(m, k)).',
                   'example': "rank_metrics.recall_at_k(predictions=ref('recs'), truth=ref('purchases'), k=[10, 50], by=['model'])"},
        'mrr': {'macro': 'mrr_at_k', 'group_column': 'mrr_at_k', 'user_column': 'reciprocal_rank', 'label': 'MRR@k',
                'options': [], 'default': true, 'sums': ['hits', 'first_hit'],
                'description': 'MRR@k: the mean reciprocal of the first relevant position within k (0 without one).',
                'example': "rank_metrics.mrr_at_k(predictions=ref('search_results'), truth=ref('clicks'), k=10,\n                      user='query_id', item='doc_id', score='score')"},
        'hit_rate': {'macro': 'hit_rate_at_k', 'group_column': 'hit_rate_at_k', 'user_column': 'hit', 'label': 'Hit rate@k',
                     'options': [], 'default': true, 'sums': ['hits'],
                     'description': 'Hit rate@k: the share of evaluated users with a relevant item within k.',
                     'example': "rank_metrics.hit_rate_at_k(predictions=ref('recs'), truth=ref('purchases'), k=12, by=['model', 'day'])"},
        'rbp': {'macro': 'rbp_at_k', 'group_column': 'rbp_at_k', 'user_column': 'rbp', 'label': 'RBP@k',
                'options': ['persistence', 'gain', 'max_grade'], 'default': false, 'sums': ['hits', 'rbp'],
                'description': "RBP@k (rank-biased precision): (1 - p) times the sum of p^(i - 1) over the relevant items at positions i within k, p the persistence (0.8 unless given); with gain='graded' each item at i weighs its grade over the top grade (max_grade) instead.",
                'example': "rank_metrics.rbp_at_k(predictions=ref('search_results'), truth=ref('judgments'), k=10,\n                      user='query_id', item='doc_id', score='score', relevance='grade',\n                      persistence=0.95)"},
        'rbp_residual': {'macro': 'rbp_residual_at_k', 'group_column': 'rbp_residual_at_k', 'user_column': 'rbp_residual',
                         'label': 'RBP residual@k', 'options': ['persistence'], 'default': false, 'judged': true,
                         'sums': ['hits', 'judged_rbp'],
                         'description': "RBP's residual at k: how much RBP@k could still rise if every unjudged position within k (no item with a truth row there) held a relevant item, plus the weight past k: (1 - p) times the sum of p^(i - 1) over the unjudged positions i within k, plus p^k.",
                         'example': "rank_metrics.rbp_residual_at_k(predictions=ref('search_results'), truth=ref('judgments'), k=10,\n                               user='query_id', item='doc_id', score='score', relevance='grade')"},
        'err': {'macro': 'err_at_k', 'group_column': 'err_at_k', 'user_column': 'err', 'label': 'ERR@k',
                'options': ['max_grade'], 'default': false, 'sums': ['hits', 'err'],
                'description': 'ERR@k (expected reciprocal rank): the sum over positions r within k of 1/r times the chance that the reader stops at r, each item stopping them with probability (2^grade - 1) / 2^max_grade.',
                'example': "rank_metrics.err_at_k(predictions=ref('search_results'), truth=ref('judgments'), k=20,\n                      user='query_id', item='doc_id', score='score', relevance='grade', max_grade=4)"},
        'auc': {'macro': 'auc_at_k', 'group_column': 'auc_at_k', 'user_column': 'auc', 'label': 'AUC@k',
                'options': ['auc_weight'], 'default': false, 'partial': true, 'sums': ['hits', 'hit_positions', 'list_length'],
                'description': 'AUC@k per user, and its mean over users (GAUC): the share of pairs of a relevant and a non-relevant item among the first k of the list in which the relevant one comes first; users without both are not evaluated for it.',
                'example': "rank_metrics.auc_at_k(predictions=ref('recs'), truth=ref('clicks'), k=50, by=['model'])"},
        'r_precision': {'macro': 'r_precision', 'group_column': 'r_precision', 'user_column': 'r_precision', 'label': 'R-precision',
                        'options': [], 'default': false, 'cutoff_free': true, 'sums': ['hits_within_r'],
                        'cutoff': "each user's cutoff is its R, the number of its relevant items",
                        'description': "R-precision (trec_eval's Rprec): the relevant items among the first R positions of the list over R, R the user's number of relevant items in truth; it takes no k (a row per group with k NULL).",
                        'example': "rank_metrics.r_precision(predictions=ref('search_results'), truth=ref('judgments'),\n                         user='query_id', item='doc_id', score='score', relevance='grade')"},
        'bpref': {'macro': 'bpref', 'group_column': 'bpref', 'user_column': 'bpref', 'label': 'bpref',
                  'options': [], 'default': false, 'cutoff_free': true, 'judged': true, 'sums': ['bpref'],
                  'cutoff': "it reads each user's whole list, skipping the items truth does not judge",
                  'description': "bpref (trec_eval's bpref): for each of the user's relevant items in the list, 1 less the judged non-relevant items ranked above it (at most R) over min(R, N); their sum over R, R and N the user's relevant and judged non-relevant items in truth; unjudged items are skipped; it takes no k (a row per group with k NULL).",
                  'example': "rank_metrics.bpref(predictions=ref('search_results'), truth=ref('judgments'),\n                   user='query_id', item='doc_id', score='score', relevance='grade')"},
    }) -%}
{%- endmacro %}

{#- One metric's per-user expression, from its own file. Named literally, not looked up by name:
    dbt finds the macros a generic test needs by reading their calls. -#}
{% macro _per_user(plan, metric, k='k', at='') -%}
    {%- if metric == 'map' -%}{{ rank_metrics._per_user_map(plan, k, at) }}
    {%- elif metric == 'ndcg' -%}{{ rank_metrics._per_user_ndcg(plan, k, at) }}
    {%- elif metric == 'precision' -%}{{ rank_metrics._per_user_precision(plan, k, at) }}
    {%- elif metric == 'recall' -%}{{ rank_metrics._per_user_recall(plan, k, at) }}
    {%- elif metric == 'mrr' -%}{{ rank_metrics._per_user_mrr(plan, k, at) }}
    {%- elif metric == 'hit_rate' -%}{{ rank_metrics._per_user_hit_rate(plan, k, at) }}
    {%- elif metric == 'rbp' -%}{{ rank_metrics._per_user_rbp(plan, k, at) }}
    {%- elif metric == 'rbp_residual' -%}{{ rank_metrics._per_user_rbp_residual(plan, k, at) }}
    {%- elif metric == 'err' -%}{{ rank_metrics._per_user_err(plan, k, at) }}
    {%- elif metric == 'auc' -%}{{ rank_metrics._per_user_auc(plan, k, at) }}
    {%- elif metric == 'r_precision' -%}{{ rank_metrics._per_user_r_precision(plan, k, at) }}
    {%- elif metric == 'bpref' -%}{{ rank_metrics._per_user_bpref(plan, k, at) }}
    {%- endif -%}
{%- endmacro %}

{#- The sums that add a term per hit row within k (the registry's sums beyond hits,
    precision_sum, dcg, first_hit, list_length and the cutoff-free metrics' sums, which the one pass computes in ways of
    their own) among
    `sums`, as words in registry order. Each has a per-hit term and a sum from the hit word,
    both in its metric's file, named below (_hit_term, _hit_term_from_bits). -#}
{% macro _hit_term_sums(sums) -%}
    {%- set registry = {} -%}
    {%- do rank_metrics._metric_registry(registry) -%}
    {%- set names = [] -%}
    {%- for entry in registry.values() -%}
        {%- for sum in entry.sums if sum in sums and not entry.get('cutoff_free')
                                   and sum not in ['hits', 'precision_sum', 'dcg', 'first_hit', 'list_length'] + names
                                   and sum not in (rank_metrics._sums_of_their_own() | trim).split() -%}{%- do names.append(sum) -%}{%- endfor -%}
    {%- endfor -%}
    {{- names | join(' ') -}}
{%- endmacro %}

{#- A sum's term for a row of rm_hits within k (an SQL expression; rows beyond k add 0). -#}
{% macro _hit_term(plan, sum, k) -%}
    {%- if sum == 'rbp' -%}{{ rank_metrics._rbp_per_hit(plan, k) }}
    {%- elif sum == 'err' -%}{{ rank_metrics._err_per_hit(plan, k) }}
    {%- elif sum == 'hit_positions' -%}{{ rank_metrics._hit_positions_per_hit(plan, k) }}
    {%- endif -%}
{%- endmacro %}

{#- A sum within k from the word of relevant hit positions, over the positions after `after`. -#}
{% macro _hit_term_from_bits(plan, sum, bits, k, after=0) -%}
    {%- if sum == 'rbp' -%}{{ rank_metrics._rbp_from_bits(plan, bits, k, after) }}
    {%- elif sum == 'err' -%}{{ rank_metrics._err_from_bits(plan, bits, k, after) }}
    {%- elif sum == 'hit_positions' -%}{{ rank_metrics._hit_positions_from_bits(plan, bits, k, after) }}
    {%- endif -%}
{%- endmacro %}

{#- A cutoff-free metric's sum: its CTE rm_<sum> (after the hits, _ranked_hits), one row per
    (by, user) with a value, and the columns it holds, as words (`columns`), which
    _user_metrics takes with 0 for the users without a row. -#}
{% macro _cutoff_free_sum(plan, sum, columns=false) -%}
    {%- if sum == 'hits_within_r' -%}{{ 'rm_hits_within_r rm_r' if columns else rank_metrics._hits_within_r(plan) }}
    {%- elif sum == 'bpref' -%}{{ 'rm_bpref' if columns else rank_metrics._bpref_per_user(plan) }}
    {%- endif -%}
{%- endmacro %}

{#- A user's weight in a group's mean of the metric, a column of rm_user_values ('' when every
    user weighs 1): GAUC under auc_weight='impressions' weighs each by its list length. -#}
{% macro _user_weight(plan, metric) -%}
    {%- if metric == 'auc' -%}{{ rank_metrics._auc_user_weight(plan) }}{%- endif -%}
{%- endmacro %}

{#- The sums at each k that a CTE of their own computes per (by, user), rm_<sum>, with a column
    rm_<sum>_<i> for the i-th k (0 for a user without a row), as words: rows other than the hits
    make them. -#}
{% macro _sums_of_their_own() -%}
    judged_rbp
{%- endmacro %}

{#- That CTE, after the hits (_ranked_hits); under hit patterns it holds a word per user instead,
    rm_<word>, which the patterns hold too, and the sum at k comes from it (`bits`, `k`, `after`
    given: _pattern_sums). -#}
{% macro _sum_of_its_own(plan, sum, bits=none, k=none, after=0) -%}
    {%- if sum == 'judged_rbp' and bits is not none -%}{{ rank_metrics._judged_rbp_from_bits(plan, bits, k, after) }}
    {%- elif sum == 'judged_rbp' -%}{{ rank_metrics._judged_rbp(plan) }}{%- endif -%}
{%- endmacro %}

{#- The word of a sum of its own under hit patterns. -#}
{% macro _word_of_its_own(sum) -%}
    {%- if sum == 'judged_rbp' -%}rm_judged_bits{%- endif -%}
{%- endmacro %}

{#- The metric names, in order, as words (the release gates check their `metric` against them);
    with defaults_only, those computed when metrics= is not given; with cutoff_free_only, those
    that take no k. -#}
{% macro _metric_names(defaults_only=false, cutoff_free_only=false) -%}
    {%- set registry = {} -%}
    {%- do rank_metrics._metric_registry(registry) -%}
    {%- set names = [] -%}
    {%- for name, entry in registry.items() if (entry.default or not defaults_only) and (entry.get('cutoff_free') or not cutoff_free_only) -%}
        {%- do names.append(name) -%}
    {%- endfor -%}
    {{- names | join(' ') -}}
{%- endmacro %}
