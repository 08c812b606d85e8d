-- A table: Spark's metastore keeps at most 32,700 characters of a view's text.
{{ config(materialized='table') }}
-- beyond_accuracy over refs, as a user's model reads its tables (the seeds of models/compare: the
-- lists of models a and b, compare_truth's five (user, item) rows as train), so that the rows'
-- checks run when it runs, and dbt build --empty, whose refs read no rows, builds it without
-- them. Recommenders' catalog coverage: a lists 8 distinct items, b 7, over train's 5; ARP:
-- users 1, 2 and 5 list their train item (one train user each), users 3 and 4 list no train item.
{{ rank_metrics.beyond_accuracy(predictions=ref('compare_predictions'), train=ref('compare_truth'), k=3, by='model',
                                metrics=['catalog_coverage', 'arp']) }}
