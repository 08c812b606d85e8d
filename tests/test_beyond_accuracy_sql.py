"""The beyond-accuracy metrics' SQL (macros/metrics/beyond_accuracy.sql) through the Python API:
docs/definitions.md's worked example on every engine, random inputs against the reference
(rank_metrics.reference_beyond) under each convention and similarity, with groups, several k,
repeated items, users without train rows or without truth, and the bad inputs' messages."""

import math

import pandas as pd
import pytest
from conftest import examples
from engine_tables import ENGINES, on_engine
from hypothesis import given, settings
from hypothesis import strategies as st

import rank_metrics
from rank_metrics import RankMetricsError, reference_beyond

TRAIN = pd.DataFrame([("u1", "a"), ("u1", "b"), ("u2", "a"), ("u2", "c"), ("u3", "a")], columns=["user_id", "item_id"])
LISTS = {"u1": ["c", "d"], "u2": ["b", "d"], "u3": ["b", "c"]}
PREDICTIONS = pd.DataFrame([(user, item, rank) for user, items in LISTS.items() for rank, item in enumerate(items, 1)],
                           columns=["user_id", "item_id", "rank"])
EVIDENTLY_CATALOG = ["catalog_coverage", "gini", "personalization", "novelty", "arp", "arp_normalized"]


def values(frame):
    return dict(zip(frame.metric, frame.value))


@pytest.mark.parametrize("engine", ENGINES)
def test_the_worked_example(engine, request):
    tables = on_engine(engine, request, "beyond", predictions=PREDICTIONS, train=TRAIN)
    got = rank_metrics.beyond_accuracy(**tables, k=2, convention="recommenders")
    assert list(got.metric) == ["catalog_coverage", "distributional_coverage", "novelty", "diversity", "serendipity"]
    assert values(got) == pytest.approx({"catalog_coverage": 1.0, "distributional_coverage": math.log2(3),
                                         "novelty": 4 * math.log2(5) / 6, "diversity": 1.0,
                                         "serendipity": ((2 - 1 / (2 * math.sqrt(3))) + (1 - 1 / math.sqrt(3))) / 3},
                                        rel=1e-12)
    assert round(values(got)["serendipity"], 6) == 0.711325 and round(values(got)["novelty"], 6) == 1.547952
    # catalog-level values carry no standard error; per-user ones do; every listed user counted
    assert got.std_error.isna().tolist() == [True, True, True, False, False] and set(got.n_users) == {3}
    evidently = rank_metrics.beyond_accuracy(**tables, k=2, convention="evidently", metrics=EVIDENTLY_CATALOG)
    assert values(evidently) == pytest.approx({"catalog_coverage": 2 / 3, "gini": 0.0, "personalization": 0.5,
                                               "novelty": math.log2(3), "arp": 1.0, "arp_normalized": 1 / 3}, rel=1e-12)
    users = rank_metrics.beyond_accuracy_users(**tables, k=2, metrics=["serendipity", "arp", "catalog_coverage"])
    assert list(users.columns) == ["user_id", "k", "serendipity", "arp"]
    assert users.serendipity.round(6).tolist() == [0.855662, 0.855662, 0.42265] and users.arp.tolist() == [1.0] * 3


LIST_SHAPED = pd.DataFrame({"user_id": list(LISTS), "item_id": list(LISTS.values())})


@pytest.mark.parametrize("engine", ENGINES)
def test_list_shaped_lists_give_the_long_forms_numbers(engine, request):
    """A row per user with its items in a list column: the worked example's numbers."""
    tables = on_engine(engine, request, "beyond_lists", train=TRAIN)
    if engine == "duckdb":
        tables["predictions"] = LIST_SHAPED
    elif engine == "postgres":   # (the tests' tables have no list columns: text[] made here)
        with tables["con"].cursor() as cursor:
            cursor.execute("drop table if exists beyond_list_shaped; "
                           "create table beyond_list_shaped (user_id text, item_id text[])")
            cursor.executemany("insert into beyond_list_shaped values (%s, %s)", list(LISTS.items()))
        tables["con"].commit()
        tables["predictions"] = "beyond_list_shaped"
    else:
        tables["predictions"] = request.getfixturevalue("spark").createDataFrame(
            list(LISTS.items()), "user_id string, item_id array<string>")
    got = rank_metrics.beyond_accuracy(**tables, k=2, metrics=["catalog_coverage", "novelty", "serendipity"])
    assert values(got) == pytest.approx({"catalog_coverage": 1.0, "novelty": 4 * math.log2(5) / 6,
                                         "serendipity": 0.7113248654051871}, rel=1e-12)


def test_kaggle_text_and_list_shaped_truth():
    """A Kaggle submission (each user's items in one text, split by item_separator) as lists, and
    truth as lists too: serendipity's relevance from it."""
    kaggle = pd.DataFrame({"customer_id": list(LISTS), "prediction": [" ".join(items) for items in LISTS.values()]})
    truth = pd.DataFrame({"customer_id": ["u1", "u3"], "item_id": [["c"], ["b", "c"]]})
    options = dict(user="customer_id", item="prediction", train_user="user_id", train_item="item_id",
                   truth_item="item_id", predictions_shape="list", item_separator=" ", metrics=["serendipity"])
    users = rank_metrics.beyond_accuracy_users(kaggle, TRAIN, 2, truth=truth, **options)
    # u1: c relevant, (1 - 1/(2 sqrt 3)) / 2; u2: nothing relevant, 0; u3: b and c, 1 - 1/sqrt 3
    assert users.serendipity.tolist() == pytest.approx([(1 - 1 / (2 * math.sqrt(3))) / 2, 0.0, 1 - 1 / math.sqrt(3)])
    with pytest.raises(RankMetricsError, match=r"predictions_shape='list' but item column 'prediction' of predictions is "
                                               r"VARCHAR, not a list; for items in text, name their separator with item_separator="):
        rank_metrics.beyond_accuracy(kaggle, TRAIN, 2, **dict(options, item_separator=None))


def test_evidentlys_features_example_and_a_negative_serendipity():
    """The reference's example of Evidently's diversity (over the list length) and serendipity
    (negative), with feature vectors as columns."""
    features = pd.DataFrame({"item_id": list("abcd"), "x": [1.0, 0, 1, 1], "y": [0, 1, 1, 0]})
    predictions = pd.DataFrame({"user_id": ["u1"] * 3, "item_id": list("bcd"), "score": [0.9, 0.5, 0.1]})
    got = rank_metrics.beyond_accuracy(predictions, pd.DataFrame({"user_id": ["u1"], "item_id": ["a"]}), 3,
                                       metrics=["diversity", "serendipity"], convention="evidently", item_features=features)
    distances = (1 - 1 / math.sqrt(2)) + 1 + (1 - 1 / math.sqrt(2))
    assert values(got) == pytest.approx({"diversity": distances / 3, "serendipity": 1 - (1 / math.sqrt(2) + 1)})


def _lists_of(predictions, order_column, descending):
    """{group: {user: [items in list order]}}, ties by item, as the query orders them."""
    found = {}
    frame = predictions.sort_values(["model", "user_id", order_column, "item_id"],
                                    ascending=[True, True, not descending, True])
    for (model, user), rows in frame.groupby(["model", "user_id"], sort=False):
        found.setdefault(model, {})[user] = list(rows.item_id)
    return found


@st.composite
def inputs(draw):
    items = [f"i{n}" for n in range(draw(st.integers(2, 9)))]
    users = list(range(1, draw(st.integers(2, 8)) + 1))
    predictions = []
    for model in ("a", "b"):
        for user in users:
            if draw(st.booleans()) or user == 1:
                # repeated items and tied ranks: lists as given; or ranks 1..n in any row order,
                # which are positions (the query takes those lists' ranks without numbering them)
                listed = draw(st.lists(st.sampled_from(items), min_size=1, max_size=6))
                ranks = draw(st.lists(st.integers(1, 4), min_size=len(listed), max_size=len(listed))
                             | st.permutations(range(1, len(listed) + 1)))
                predictions += [(model, user, item, rank) for item, rank in zip(listed, ranks)]
    # train: some of the users (and users with no list), some items never in train
    train = sorted(set(draw(st.lists(st.tuples(st.sampled_from(users + [90, 91]), st.sampled_from(items[:-1])),
                                     min_size=1, max_size=25))))
    # truth graded 0..2: an item graded 0 is judged, not relevant
    judged = sorted(set(draw(st.lists(st.tuples(st.sampled_from(users), st.sampled_from(items)), max_size=15))))
    truth = [(user, item, draw(st.integers(0, 2))) for user, item in judged]
    features = {item: [draw(st.integers(0, 3)), draw(st.integers(0, 3))] for item in items}
    for item, vector in features.items():
        if not any(vector):
            vector[0] = 1
    return predictions, train, truth, features


@settings(max_examples=examples(60))
@given(inputs(), st.sampled_from([None, "recommenders", "evidently"]), st.sampled_from(["cooccurrence", "features"]),
       st.lists(st.integers(1, 7), min_size=1, max_size=3, unique=True), st.booleans())
def test_random_inputs_equal_the_reference(drawn, convention, similarity, ks, with_truth):
    predictions, train, truth, features = drawn
    predictions = pd.DataFrame(predictions, columns=["model", "user_id", "item_id", "rank"])
    train_frame = pd.DataFrame(train, columns=["user_id", "item_id"])
    truth_frame = pd.DataFrame(truth, columns=["user_id", "item_id", "relevance"], dtype=object) \
        .astype({"user_id": "int64", "relevance": "int64"}) if with_truth else None
    if with_truth and not len(truth):
        truth_frame = pd.DataFrame({"user_id": pd.Series(dtype="int64"), "item_id": pd.Series(dtype="str"),
                                    "relevance": pd.Series(dtype="int64")})
    feature_frame = pd.DataFrame([(item, *vector) for item, vector in features.items()], columns=["item_id", "x", "y"])
    metrics = [metric for metric in reference_beyond.METRICS
               if convention is None or metric in reference_beyond.DEFINED_BY[convention]]
    got = rank_metrics.beyond_accuracy(predictions, train_frame, ks, metrics=metrics, by="model", convention=convention,
                                       similarity=similarity, truth=truth_frame, item_features=feature_frame)
    users = rank_metrics.beyond_accuracy_users(predictions, train_frame, ks, metrics=metrics, by="model",
                                               convention=convention, similarity=similarity, truth=truth_frame,
                                               item_features=feature_frame)
    relevant = {}
    for user, item, grade in truth:
        if grade > 0:
            relevant.setdefault(user, set()).add(item)
    for model, lists in _lists_of(predictions, "rank", False).items():
        for k in ks:
            per_user, expected = reference_beyond.beyond_accuracy(
                lists, train, k, metrics=metrics, convention=convention, similarity=similarity, item_features=features,
                relevant=relevant if with_truth else None)
            rows = got[(got.model == model) & (got.k == k)]
            assert list(rows.metric) == metrics
            for metric in metrics:
                row = rows[rows.metric == metric].iloc[0]
                want = expected[metric]
                assert row.n_users == want["n_users"], (metric, k)
                if want["value"] is None:
                    assert math.isnan(row.value), (metric, k, row.value)
                else:
                    assert row.value == pytest.approx(want["value"], rel=1e-9, abs=1e-12), (metric, k)
                if want["std_error"] is None:
                    assert math.isnan(row.std_error), (metric, k)
                else:
                    assert row.std_error == pytest.approx(want["std_error"], rel=1e-9, abs=1e-12), (metric, k)
            mine = users[(users.model == model) & (users.k == k)].set_index("user_id")
            for metric, by_user in per_user.items():
                column = mine[metric].dropna().to_dict()
                assert column == pytest.approx(by_user, rel=1e-9, abs=1e-12), (metric, k)


@pytest.mark.parametrize("arguments, message", [
    (dict(train=TRAIN.iloc[:0]), "train has no rows"),
    (dict(metrics=["gini"], convention="recommenders"), "recommenders has no gini (it is evidently's)"),
    (dict(metrics=["coverage"]), "unknown beyond-accuracy metric 'coverage'"),
    (dict(convention="ranx"), "convention of the beyond-accuracy metrics must be one of 'recommenders', 'evidently'"),
    (dict(k=0), "k must be a whole number 1 or more"),
    (dict(k=2.0), "k must be a whole number 1 or more, or a list of them; got 2.0"),
    (dict(metrics=[]), "metrics names no metric; name some of catalog_coverage,"),
    (dict(item_separator=" "), "item_separator splits the items of a list-shaped table out of text, but no table is said to be one"),
    (dict(predictions=pd.DataFrame({"user_id": ["u1", "u1"], "item_id": ["b c", "c d"]}), predictions_shape="list", item_separator=" "),
     "predictions_shape='list' reads a row as a user's whole list, but user u1 has 2 rows in predictions; the lists of several models "
     "need by= naming the column that tells them apart"),
    (dict(convetion="evidently"), "beyond_accuracy: unknown argument 'convetion' (did you mean 'convention'?)"),
    (dict(metrics=["diversity"], similarity="features"), "give item_features"),
    (dict(metrics=["diversity"], similarity="features",
          item_features=pd.DataFrame({"item_id": ["b", "c"], "x": [1.0, 1.0]})),
     "item_features has no row for the listed item d"),
    (dict(metrics=["diversity"], similarity="features",
          item_features=pd.DataFrame({"item_id": ["b", "c", "d"], "x": [1.0, 0.0, 2.0]})),
     "item_features gives the listed item c a zero feature vector"),
    (dict(metrics=["diversity"], similarity="features",
          item_features=pd.DataFrame({"item_id": ["b", "c", "d", "c"], "x": [1.0, 1.0, 2.0, 1.0]})),
     "item_features has more than one row for the listed item c (each item needs one feature vector)"),
    (dict(metrics=["diversity"], similarity="features",
          item_features=pd.DataFrame({"item_id": ["b", "c", "d"], "x": [1.0, 1.0, 2.0], "y": [1.0, math.inf, None]})),
     "item_features has NULL, NaN or an infinite value in column y for the listed item c (features must be finite numbers)"),
    # finite features whose squares are 0 or infinite: the cosine was NaN, a raw ConversionException
    *[(dict(metrics=["diversity"], similarity="features",
            item_features=pd.DataFrame({"item_id": ["b", "c", "d"], "x": [scale, 2 * scale, scale], "y": [0.0, scale, scale]})),
       "item_features gives the listed item b a feature vector whose squared length is too small or too large for a double")
      for scale in (1e-200, 1e160)],
    (dict(truth=pd.DataFrame({"user_id": ["u1", None], "item_id": ["c", "d"]})),
     "truth has NULL in column user_id (user and item ids must be given)"),
    (dict(train=pd.DataFrame({"user_id": ["u1", "u2"], "item_id": ["a", None]})),
     "train has NULL in column item_id (user and item ids must be given)"),
    (dict(metrics=["serendipity"], similarity="features",
          item_features=pd.DataFrame({"item_id": ["b", "c", "d"], "x": [1.0, 1.0, 2.0]})),
     "item_features has no row for the train item a"),
    (dict(metrics=["diversity"], similarity="features",
          item_features=pd.DataFrame({"item_id": ["b", "c", "d"], "x": ["1", "1", "2"]})),
     "column 'x' of item_features is VARCHAR; every column besides the item column ('item_id') is a feature and must be numeric"),
    (dict(train=pd.DataFrame({"user_id": ["u1"], "item": ["a"]})), "column 'item_id' (argument train_item) is not in train"),
    (dict(train=pd.DataFrame({"user_id": ["u1"], "item_id": [1]})),
     "column 'item_id' (argument train_item) of train is BIGINT but predictions' 'item_id' is VARCHAR"),
    (dict(predictions=PREDICTIONS.rename(columns={"rank": "position"})), "predictions has no column rank or score"),
    # both, neither named: evaluate's error (rank was taken without a word: a dbt user's trial)
    (dict(predictions=PREDICTIONS.assign(score=1.0)),
     "predictions has both a rank and a score column; name the one to use with rank= or score="),
    (dict(predictions=PREDICTIONS.assign(rank=[1, 2, 1, None, 1, 2])),
     "predictions has NULL in column rank (rank values must not be NULL)"),
    (dict(predictions=PREDICTIONS.assign(rank=[1, 2, 1, -math.inf, 1, 2.0])),
     "predictions has NaN or an infinite value in column rank (rank values must be finite numbers)"),
])
def test_bad_inputs_get_a_message_naming_what_is_wrong(arguments, message):
    call = dict(predictions=PREDICTIONS, train=TRAIN, k=2)
    call.update(arguments)
    with pytest.raises(RankMetricsError) as error:
        rank_metrics.beyond_accuracy(**call)
    assert message in str(error.value)


@pytest.mark.parametrize("engine", ENGINES)
def test_null_or_infinite_order_values_and_null_by_values_are_named(engine, request):
    """SPEC §4: a NULL or infinite score (rank), a NULL by value, or a NaN or infinite id is an
    error before any metric, as in evaluate: the engines sort NULL and NaN apart, so each would
    list other items, and NaN ids would meet each other in the engines' joins."""
    lists = PREDICTIONS.assign(model="m", score=1.0 / PREDICTIONS["rank"]).drop(columns="rank")
    last = len(lists) - 1
    cases = [(lists.assign(model=["m"] * last + [None]), "predictions has NULL in column model (by values must not be NULL)"),
             (lists.assign(score=[*lists.score[:last], None]),
              "predictions has NULL in column score (score values must not be NULL)"),
             (lists.assign(score=[*lists.score[:last], math.inf]),
              "predictions has NaN or an infinite value in column score (score values must be finite numbers)")]
    # ids in a floating point column (pandas' NaN is read as NULL there): ±inf and NaN are no ids,
    # and NaN equals NaN in the engines' joins
    numbered = {"u1": 1.0, "u2": 2.0, "u3": 3.0}
    train = TRAIN.assign(user_id=TRAIN.user_id.map(numbered))
    lists = lists.assign(user_id=lists.user_id.map(numbered))
    cases += [(lists.assign(user_id=[*lists.user_id[:last], -math.inf]),
               "predictions has NaN or an infinite value in column user_id (user and item ids must be finite numbers)", train),
              (lists, "train has NaN or an infinite value in column user_id (user and item ids must be finite numbers)",
               train.assign(user_id=[*train.user_id[:-1], math.inf]))]
    for number, (predictions, message, *other) in enumerate(cases):
        tables = on_engine(engine, request, f"beyond_bad_order_{number}", predictions=predictions, train=(other or [TRAIN])[0])
        with pytest.raises(RankMetricsError) as error:
            rank_metrics.beyond_accuracy(**tables, k=2, by="model", metrics=["catalog_coverage", "diversity"])
        assert str(error.value) == f"rank_metrics: {message}"


def test_truth_graded_0_is_not_relevant(tmp_path):
    """Serendipity's relevant items under truth with grades, read as evaluate reads them: u's
    list [a, b], its train items a and c, truth b graded 2 and a graded 0. recommenders, by
    co-occurrence: a 1 - (1 + 1/2)/2 = 0.25, b 1 - (1/2 + 1/2)/2 = 0.5; the mean of 0 x 0.25 and
    1 x 0.5 is 0.25, not 0.375 (a counted relevant). By relevance=, a column named relevance,
    and --relevance."""
    from test_cli import run

    lists = pd.DataFrame({"user_id": ["u", "u"], "item_id": ["a", "b"], "rank": [1, 2]})
    train = pd.DataFrame({"user_id": ["u", "u", "v", "v", "w", "w"], "item_id": ["a", "c", "a", "b", "b", "c"]})
    truth = pd.DataFrame({"user_id": ["u", "u"], "item_id": ["b", "a"], "relevance": [2, 0]})
    _, want = reference_beyond.beyond_accuracy({"u": ["a", "b"]}, train.itertuples(index=False), 2, metrics=["serendipity"],
                                               convention="recommenders", relevant={"u": {"b"}})
    assert want["serendipity"]["value"] == pytest.approx(0.25)
    arguments = dict(metrics=["serendipity"], convention="recommenders")
    for graded in (dict(truth=truth), dict(truth=truth.rename(columns={"relevance": "grade"}), relevance="grade")):
        assert values(rank_metrics.beyond_accuracy(lists, train, 2, **arguments, **graded)) == {"serendipity": pytest.approx(0.25)}
    # without grades every truth row is relevant
    assert values(rank_metrics.beyond_accuracy(lists, train, 2, **arguments, truth=truth.drop(columns="relevance"))) == \
        {"serendipity": pytest.approx(0.375)}
    for name, frame in (("lists", lists), ("train", train), ("truth", truth.rename(columns={"relevance": "grade"}))):
        frame.to_csv(tmp_path / f"{name}.csv", index=False)
    code, out, _ = run("beyond-accuracy", *(str(tmp_path / f"{name}.csv") for name in ("lists", "train")), "-k", "2",
                       "--metrics", "serendipity", "--convention", "recommenders", "--truth", str(tmp_path / "truth.csv"),
                       "--relevance", "grade", "--format", "csv")
    assert code == 0 and float(out.splitlines()[1].split(",")[2]) == pytest.approx(0.25)
    # a grade column by another name, not named, is warned of (as evaluate does): it is not read
    with pytest.warns(rank_metrics.RankMetricsWarning, match=r"truth has a column 'grade' that is not read: every truth row "
                      r"counts as relevant, .* pass relevance='grade' \(--relevance grade on the command line\)"):
        unread = rank_metrics.beyond_accuracy(lists, train, 2, **arguments, truth=truth.rename(columns={"relevance": "grade"}))
    assert values(unread) == {"serendipity": pytest.approx(0.375)}
    code, out, err = run("beyond-accuracy", *(str(tmp_path / f"{name}.csv") for name in ("lists", "train")), "-k", "2",
                         "--metrics", "serendipity", "--truth", str(tmp_path / "truth.csv"), "--format", "csv")
    assert code == 0 and err.startswith("rank-metrics: warning: truth has a column 'grade' that is not read"), err


def test_predictions_without_rows_are_said():
    """No list, no row: said, not an empty table without a word (a new user's trial)."""
    empty = PREDICTIONS.iloc[:0]
    for function in (rank_metrics.beyond_accuracy, rank_metrics.beyond_accuracy_users):
        with pytest.warns(rank_metrics.RankMetricsWarning, match="predictions has no rows, so there is no list to measure"):
            assert len(function(empty, TRAIN, 2)) == 0


def test_the_command_line(tmp_path):
    """rank-metrics beyond-accuracy on CSV files: the worked example's rows as CSV with every
    digit, the per-user rows, Evidently's metrics with feature vectors from a file, and errors
    as one line naming the flag, status 2."""
    from test_cli import run

    PREDICTIONS.to_csv(tmp_path / "lists.csv", index=False)
    TRAIN.to_csv(tmp_path / "train.csv", index=False)
    pd.DataFrame({"item_id": list("abcd"), "x": [1, 0, 1, 1], "y": [0, 1, 1, 0]}).to_csv(tmp_path / "features.csv", index=False)
    lists, train = str(tmp_path / "lists.csv"), str(tmp_path / "train.csv")
    code, out, _ = run("beyond-accuracy", lists, train, "-k", "2", "--convention", "recommenders", "--format", "csv")
    assert code == 0
    rows = {line.split(",")[1]: float(line.split(",")[2]) for line in out.splitlines()[1:]}
    assert rows == pytest.approx({"catalog_coverage": 1.0, "distributional_coverage": math.log2(3),
                                  "novelty": 4 * math.log2(5) / 6, "diversity": 1.0, "serendipity": 0.7113248654051871})
    code, out, _ = run("beyond-accuracy", lists, train, "-k", "2", "--per-user", "--metrics", "serendipity")
    assert code == 0 and out.split() == ["user_id", "k", "serendipity", "u1", "2", "0.855662", "u2", "2", "0.855662",
                                         "u3", "2", "0.422650"]
    code, out, _ = run("beyond-accuracy", lists, train, "-k", "2", "--convention", "evidently", "--metrics", "diversity",
                       "--item-features", str(tmp_path / "features.csv"), "--format", "csv")
    # u1 [c, d]: 1 - cos(c, d) = 1 - 1/sqrt 2, over 2 entries; u2 [b, d]: 1 - 0 over 2; u3 [b, c]: the same as u1
    assert code == 0 and float(out.splitlines()[1].split(",")[2]) == pytest.approx(
        ((1 - 1 / math.sqrt(2)) / 2 * 2 + 1 / 2) / 3)
    code, _, err = run("beyond-accuracy", lists, train, "-k", "2", "--train-item", "article")
    assert code == 2 and err == "rank-metrics: error: column 'article' (--train-item) is not in train (its columns: user_id, item_id)\n"
    code, _, err = run("beyond-accuracy", lists, train, "-k", "2", "--metrics", "diversity", "--similarity", "features")
    assert code == 2 and "give --item-features (an item column" in err and len(err.splitlines()) == 1
    (tmp_path / "empty.csv").write_text("user_id,item_id\n")
    code, _, err = run("beyond-accuracy", lists, str(tmp_path / "empty.csv"), "-k", "2")
    empty = str(tmp_path / "empty.csv")
    assert code == 2 and err == f"rank-metrics: error: train: cannot read {empty!r}: it has a header line but no rows\n"
    (tmp_path / "binary.csv").write_bytes(b"user_id,item_id\nu1,a\n" + bytes(range(256)) * 12)
    code, _, err = run("beyond-accuracy", lists, str(tmp_path / "binary.csv"), "-k", "2")
    assert code == 2 and err.startswith("rank-metrics: error: train: cannot read") and len(err.splitlines()) == 1


def test_the_query_says_what_made_it_and_no_name_ends_its_comment():
    from rank_metrics._render import render

    sql = render("_beyond_accuracy_query", "duckdb", predictions="p", train="t", ks=[5, 2],
                 metrics=[{"metric": "diversity", "definition": "recommenders"}], by=["model"], user="u\nselect 1",
                 item="item_id", order="rank", descending=False, train_user="user_id", train_item="item_id")
    lines = sql.splitlines()
    assert lines[0] == "-- rank_metrics 0.2.0: beyond_accuracy"
    assert lines[1] == ("-- options: k=[5, 2], diversity=recommenders, by=['model'], user='u\\nselect 1', item='item_id', "
                        "rank='rank', train_user='user_id', train_item='item_id', similarity='cooccurrence'")
    assert lines[2] == "with rm_ks as ("


def test_the_report_shows_them_beside_accuracy(tmp_path):
    """report(train=...) and `rank-metrics report --train`: a grid per model of each metric at each
    k, the values of beyond_accuracy, names escaped as everywhere on the page."""
    from test_cli import run

    predictions = pd.concat([PREDICTIONS.assign(model="<b>x</b>"),
                             PREDICTIONS.assign(model="y", rank=3 - PREDICTIONS["rank"])])
    truth = pd.DataFrame({"user_id": ["u1", "u2"], "item_id": ["d", "b"]})
    page = rank_metrics.report(predictions, truth, [1, 2], by="model", train=TRAIN, beyond_convention="evidently")
    section = page[page.index("<h2>Beyond accuracy</h2>"):page.index("<h2>Inputs</h2>")]
    assert "<h3>model &lt;b&gt;x&lt;/b&gt;</h3>" in section and "<b>x</b>" not in section
    cells = section[section.index("<h3>model y</h3>"):]
    # (the page's similarity is co-occurrence: it has no item features)
    got = rank_metrics.beyond_accuracy(predictions[predictions.model == "y"], TRAIN, [1, 2], convention="evidently",
                                       similarity="cooccurrence")
    for row in got.itertuples():
        assert f"<td>{row.metric}</td>" in cells and f"<td>{row.value:.6f}</td>" in cells
    predictions.to_csv(tmp_path / "lists.csv", index=False)
    truth.to_csv(tmp_path / "truth.csv", index=False)
    TRAIN.to_csv(tmp_path / "train.csv", index=False)
    code, _, err = run("report", str(tmp_path / "lists.csv"), str(tmp_path / "truth.csv"), "-k", "2", "--by", "model",
                       "--train", str(tmp_path / "train.csv"), "-o", str(tmp_path / "page.html"))
    assert code == 0, err
    assert "<td>serendipity</td>" in (tmp_path / "page.html").read_text()


def test_compare_pairs_the_per_user_metrics():
    """compare_beyond_accuracy: b against a on each per-user metric, the users with a value on
    both sides paired: the reference's per-user values, and scipy's paired t test on them."""
    import random

    from scipy import stats as scipy_stats

    draw = random.Random(3)
    rows, lists = [], {"a": {}, "b": {}}
    for user in range(40):
        for model in ("a", "b"):
            items = [f"i{number}" for number in draw.sample(range(20), draw.randint(1, 5))]
            lists[model][user] = items
            rows += [(model, user, item, rank) for rank, item in enumerate(items, 1)]
    train = sorted({(draw.randrange(50), f"i{draw.randrange(20)}") for _ in range(150)})
    got = rank_metrics.compare_beyond_accuracy(pd.DataFrame(rows, columns=["model", "user_id", "item_id", "rank"]),
                                               pd.DataFrame(train, columns=["user_id", "item_id"]), 4, baseline="a",
                                               by="model", metrics=["diversity", "serendipity", "arp", "gini"])
    # gini is one value of the whole group: nothing to pair
    assert got.metric.tolist() == ["diversity", "serendipity", "arp"] and set(got.model) == {"b"}
    for row in got.itertuples():
        per_model = {model: reference_beyond.beyond_accuracy(lists[model], train, 4, metrics=[row.metric])[0][row.metric]
                     for model in ("a", "b")}
        paired = sorted(set(per_model["a"]) & set(per_model["b"]))
        assert row.n_users == len(paired) and row.n_only_model == len(per_model["b"]) - len(paired)
        mine, theirs = [per_model["b"][user] for user in paired], [per_model["a"][user] for user in paired]
        assert row.difference == pytest.approx(sum(mine) / len(mine) - sum(theirs) / len(theirs), rel=1e-9)
        assert row.p_value == pytest.approx(scipy_stats.ttest_rel(mine, theirs).pvalue, rel=1e-6)


def _two_segments_of_three_models(seed):
    """Three models' lists over two segments of users, some users listed by one model only, some
    without train rows (no serendipity) or with one distinct item (no diversity pair)."""
    import random

    draw = random.Random(seed)
    rows = []
    for user in range(36):
        for model in ("a", "b", "c"):
            if (user + ord(model)) % 7 == 0:   # this model has no list for this user
                continue
            count = 1 if user % 11 == 0 else draw.randint(2, 5)
            rows += [(model, "north" if user % 2 else "south", user, f"i{item}", rank)
                     for rank, item in enumerate(draw.sample(range(18), count), 1)]
    train = sorted({(draw.randrange(30), f"i{draw.randrange(18)}") for _ in range(160)})
    return (pd.DataFrame(rows, columns=["model", "segment", "user_id", "item_id", "rank"]),
            pd.DataFrame(train, columns=["user_id", "item_id"]))


@pytest.mark.parametrize("engine", ENGINES)
def test_compare_in_sql_equals_pairing_the_users_values(engine, request):
    """compare_beyond_accuracy's t test is one query (the dbt macro's SQL), its p-value then
    Student's: every column equal to pairing beyond_accuracy_users' values in Python (stats.paired),
    per segment, with the users a side has no value for counted apart, under each correction
    and family."""
    from rank_metrics import beyond
    from rank_metrics.comparison import _finished

    lists, train = _two_segments_of_three_models(4)
    tables = on_engine(engine, request, "beyond_compare", predictions=lists, train=train)
    arguments = dict(k=[2, 4], by=["model", "segment"], convention="evidently", similarity="cooccurrence",
                     metrics=["novelty", "arp", "arp_normalized", "diversity", "serendipity", "gini"])
    users = rank_metrics.beyond_accuracy_users(**tables, **arguments)
    # (on Spark, where a query takes seconds to plan, one correction)
    for correction, family in (("holm", "metric_and_k"), ("bonferroni", "all"))[:1 if engine == "spark" else 2]:
        got = rank_metrics.compare_beyond_accuracy(**tables, **arguments, baseline="b", correction=correction,
                                                   family=family)
        unfinished = beyond._resampled_beyond(users, "model", ["segment"], "b", "t", 0, 10, {})
        want = _finished(unfinished.astype({"k": "int64"}), "model", ["segment"], correction, family, 0.05)
        want = want.set_index(["model", "segment", "k", "metric"]).loc[
            list(got.set_index(["model", "segment", "k", "metric"]).index)].reset_index()
        assert len(got) == 2 * 2 * 2 * 5 == len(unfinished)   # a, c x two segments x two k x five metrics
        assert got.metric.tolist()[:5] == arguments["metrics"][:5]
        assert (got.n_only_model + got.n_only_baseline).sum() > 0 and got.p_value.notna().all()
        for column in got.columns:
            if got[column].dtype.kind == "f":
                assert got[column].tolist() == pytest.approx(want[column].tolist(), rel=1e-9, abs=1e-12), column
            else:
                assert got[column].tolist() == want[column].tolist(), column


def test_compare_names_what_is_wrong():
    lists, train = _two_segments_of_three_models(5)
    arguments = dict(predictions=lists, train=train, k=3, by="model", metrics=["arp"])
    # the t test's check query (the dbt macro's too) and the resampled tests' own check
    with pytest.raises(RankMetricsError, match=r"predictions has no rows with model = 'z'; baseline must be one of the "
                                               r"values of by \(model\): 'a', 'b', 'c'"):
        rank_metrics.compare_beyond_accuracy(**arguments, baseline="z")
    # left out, in our words (Python's TypeError said "missing 1 required keyword-only argument")
    with pytest.raises(RankMetricsError, match=r"^rank_metrics: compare_beyond_accuracy: baseline is required: the value of "
                                               r"model that each other model is compared with \(baseline='popularity'\)$"):
        rank_metrics.compare_beyond_accuracy(**arguments)
    with pytest.raises(RankMetricsError, match=r"compare_beyond_accuracy: baseline 'z' is not a value of column model "
                                               r"among the users evaluated; its values are: 'a', 'b', 'c'"):
        rank_metrics.compare_beyond_accuracy(**arguments, baseline="z", test="bootstrap", resamples=100)
    with pytest.raises(RankMetricsError, match=r"compare_beyond_accuracy pairs the users' values of the per-user metrics \(novelty under "
                                               r"evidently, arp, arp_normalized, diversity, serendipity\); metrics asks only for metrics "
                                               r"of a whole group's lists: gini \(evidently\)"):
        rank_metrics.compare_beyond_accuracy(**dict(arguments, metrics=["gini"]), baseline="a")
    with pytest.raises(RankMetricsError, match=r"compare_beyond_accuracy pairs the users' values of the per-user metrics"):
        rank_metrics.compare_beyond_accuracy(**dict(arguments, metrics=["gini"]), baseline="a", test="permutation")
    with pytest.raises(RankMetricsError, match=r"beyond_accuracy_users gives the users' values of the per-user metrics"):
        rank_metrics.beyond_accuracy_users(**{**arguments, "metrics": ["gini"]})
    with pytest.raises(RankMetricsError, match=r"compare_beyond_accuracy: unknown argument 'convetion' \(did you mean "
                                               r"'convention'\?\)"):
        rank_metrics.compare_beyond_accuracy(**arguments, baseline="a", test="bootstrap", convetion="evidently")
    with pytest.raises(RankMetricsError, match=r"compare_beyond_accuracy: alpha must be a number between 0 and 1; got 2"):
        rank_metrics.compare_beyond_accuracy(**arguments, baseline="a", alpha=2)
    with pytest.raises(RankMetricsError, match=r"compare_beyond_accuracy: by must name the column"):
        rank_metrics.compare_beyond_accuracy(**dict(arguments, by=None), baseline="a")
    # strict=True makes the warnings of the data's shape errors, for the t test as for the others
    twice = pd.concat([lists, lists.head(1)], ignore_index=True)
    for test in ("t", "permutation"):
        with pytest.raises(RankMetricsError, match=r"\(strict=True makes this warning an error\)"):
            rank_metrics.compare_beyond_accuracy(**dict(arguments, predictions=twice), baseline="a", test=test, strict=True)
    # a number column's baseline spelt as text, as the command line gives it
    numbered = lists.assign(model=lists.model.map({"a": 1, "b": 2, "c": 3}))
    by_number = rank_metrics.compare_beyond_accuracy(**dict(arguments, predictions=numbered), baseline="2")
    assert by_number.model.tolist() == [1, 3]
    assert by_number.difference.tolist() == pytest.approx(
        rank_metrics.compare_beyond_accuracy(**arguments, baseline="b").difference.tolist(), rel=1e-12)


def test_the_command_line_compares_with_a_baseline(tmp_path):
    """rank-metrics beyond-accuracy --by model --baseline a: compare_beyond_accuracy's rows, with
    every digit in CSV; --baseline needs --by and has no --per-user rows."""
    from test_cli import run

    draw = __import__("random").Random(5)
    rows = [(model, user, f"i{item}", rank) for user in range(30) for model in ("a", "b")
            for rank, item in enumerate(draw.sample(range(15), 4), 1)]
    lists = pd.DataFrame(rows, columns=["model", "user_id", "item_id", "rank"])
    train = pd.DataFrame(sorted({(draw.randrange(40), f"i{draw.randrange(15)}") for _ in range(120)}),
                         columns=["user_id", "item_id"])
    lists.to_csv(tmp_path / "lists.csv", index=False)
    train.to_csv(tmp_path / "train.csv", index=False)
    files = str(tmp_path / "lists.csv"), str(tmp_path / "train.csv")
    code, out, _ = run("beyond-accuracy", *files, "-k", "4", "--by", "model", "--baseline", "a", "--metrics", "arp",
                       "diversity", "--test", "permutation", "--seed", "2", "--format", "csv")
    expected = rank_metrics.compare_beyond_accuracy(lists, train, 4, baseline="a", by="model", metrics=["arp", "diversity"],
                                                    test="permutation", seed=2)
    assert code == 0
    got = pd.read_csv(__import__("io").StringIO(out))
    assert got.metric.tolist() == ["arp", "diversity"]
    assert got.p_value.tolist() == pytest.approx(expected.p_value.tolist(), rel=1e-12)
    assert got.difference.tolist() == pytest.approx(expected.difference.tolist(), rel=1e-12)
    # the table for people to read is compare's: its columns, markers and legend (it was the raw frame)
    code, table, _ = run("beyond-accuracy", *files, "-k", "4", "--by", "model", "--baseline", "a", "--metrics", "arp",
                         "--test", "permutation", "--seed", "2")
    _, compared, _ = run("compare", *files, "-k", "4", "--by", "model", "--baseline", "a", "--metrics", "map")
    assert code == 0 and table.splitlines()[0] == compared.splitlines()[0], (table, compared)
    assert "significantly better / worse than 'a' (adjusted p < 0.05; test permutation, correction holm over" in table
    code, _, err = run("beyond-accuracy", *files, "-k", "4", "--baseline", "a")
    assert code == 2 and "--by must name the column whose values are the models" in err
    code, _, err = run("beyond-accuracy", *files, "-k", "4", "--by", "model", "--baseline", "a", "--per-user")
    assert code == 2 and "--baseline compares the models' per-user values; it has no --per-user rows" in err


def test_lists_merged_and_ids_with_spaces_are_warned_of(tmp_path):
    """Two models' lists read as one list per user (by= left out), lists of two days at one
    rank, ids with a space at an end in train only: a plausible wrong number with no error, so
    each is evaluate's warning, with train in truth's place; an error under strict=True
    (--strict on the command line); no warning with by=."""
    from test_cli import run

    lists = pd.DataFrame([(model, user, item, rank) for model, items in (("x", "ab"), ("y", "ba"))
                          for user in ("u1", "u2") for rank, item in enumerate(items, 1)],
                         columns=["model", "user_id", "item_id", "rank"])
    train = pd.DataFrame([("u1", "a"), ("u2", "b"), ("u3", "a")], columns=["user_id", "item_id"])
    with pytest.warns(rank_metrics.RankMetricsWarning, match="predictions have a column 'model' that by= does not name"):
        rank_metrics.beyond_accuracy(lists, train, 2, metrics=["arp"])
    with pytest.raises(RankMetricsError, match=r"column 'model' that by= .*\(strict=True makes this warning an error\)"):
        rank_metrics.beyond_accuracy_users(lists, train, 2, metrics=["arp"], strict=True)
    by_day = lists.rename(columns={"model": "day"})
    with pytest.warns(rank_metrics.RankMetricsWarning, match=r"lists merged: user 'u1' has two rows at rank 1, and "
                      r"their column 'day', which by= does not name, differs between them: .* pass by='day' for a row "
                      r"per day \(--by day on the command line\)"):
        rank_metrics.beyond_accuracy(by_day, train, 2, metrics=["arp"])
    one_list = lists[lists.model == "x"].drop(columns="model")
    spaced = train.assign(item_id=train.item_id.replace("a", "a "))
    with pytest.warns(rank_metrics.RankMetricsWarning, match=r"train's column 'item_id' holds ids with a space at the "
                      r"start or end, such as 'a ', and predictions' have none"):
        rank_metrics.beyond_accuracy(one_list, spaced, 2, metrics=["catalog_coverage"])
    with __import__("warnings").catch_warnings():
        __import__("warnings").simplefilter("error")
        grouped = rank_metrics.beyond_accuracy(lists, train, 2, metrics=["arp"], by="model")
    # per model, each user's list [a, b] or [b, a]: a has 2 train users, b 1
    assert grouped.value.tolist() == [1.5, 1.5]
    by_day.to_csv(tmp_path / "lists.csv", index=False)
    train.to_csv(tmp_path / "train.csv", index=False)
    code, out, err = run("beyond-accuracy", str(tmp_path / "lists.csv"), str(tmp_path / "train.csv"), "-k", "2",
                         "--strict")
    assert (code, out) == (2, "") and err.startswith("rank-metrics: error: lists merged: user 'u1'") and \
        err.rstrip().endswith("(--strict makes this warning an error)")


@pytest.mark.parametrize("engine", [pytest.param("postgres", marks=pytest.mark.postgres)])
def test_random_cases_equal_the_reference_on_the_engine(engine, request):
    """Forty random cases in one query per call (a group each; train, truth and features shared),
    under each convention with its usual similarity, against the reference: PostgreSQL's own
    logarithms, square roots, numeric averages and standard deviations give the same numbers.
    (On Spark the two calls took 100 s, its planning of the query's self-joins: Spark runs the
    worked example, list-shaped lists and the dbt integration project's example instead.)"""
    import random

    draw = random.Random(11)
    items = [f"i{number}" for number in range(12)]
    train = sorted({(draw.randrange(30), draw.choice(items[:-1])) for _ in range(90)})
    truth = [(user, item, draw.randint(0, 2)) for user, item in sorted({(draw.randrange(30), draw.choice(items)) for _ in range(40)})]
    features = {item: [draw.randint(0, 3), draw.randint(1, 3)] for item in items}
    rows, cases = [], {}
    for case in range(40):
        lists = {user: [draw.choice(items) for _ in range(draw.randint(1, 6))] for user in draw.sample(range(30), 4)}
        cases[case] = lists
        rows += [(case, user, item, rank) for user, listed in lists.items() for rank, item in enumerate(listed, 1)]
    tables = on_engine(engine, request, "beyond_random",
                       predictions=pd.DataFrame(rows, columns=["case_id", "user_id", "item_id", "rank"]),
                       train=pd.DataFrame(train, columns=["user_id", "item_id"]),
                       truth=pd.DataFrame(truth, columns=["user_id", "item_id", "relevance"]),
                       item_features=pd.DataFrame([(item, *vector) for item, vector in features.items()],
                                                  columns=["item_id", "x", "y"]))
    relevant = {}
    for user, item, grade in truth:
        if grade > 0:
            relevant.setdefault(user, set()).add(item)
    for convention in ("recommenders", "evidently"):
        metrics = list(reference_beyond.DEFINED_BY[convention])
        got = rank_metrics.beyond_accuracy(**tables, k=[2, 5], by="case_id", convention=convention, metrics=metrics)
        for case, lists in cases.items():
            for k in (2, 5):
                _, expected = reference_beyond.beyond_accuracy(lists, train, k, metrics=metrics, convention=convention,
                                                               item_features=features, relevant=relevant)
                rows_k = got[(got.case_id == case) & (got.k == k)].set_index("metric")
                for metric, want in expected.items():
                    row = rows_k.loc[metric]
                    assert row.n_users == want["n_users"], (convention, case, k, metric)
                    for column in ("value", "std_error"):
                        if want[column] is None:
                            assert math.isnan(row[column]), (convention, case, k, metric, column)
                        else:
                            assert row[column] == pytest.approx(want[column], rel=1e-9, abs=1e-12), \
                                (convention, case, k, metric, column)


@pytest.mark.parametrize("convention", ["recommenders", "evidently"])
def test_every_warehouse_dialect_transpiled_to_duckdb_gives_the_worked_example(convention):
    """The query as each warehouse's adapter renders it (BigQuery, Databricks, Redshift, Snowflake,
    Trino; Spark and PostgreSQL run it above), parsed in its own dialect with errors raised and
    transpiled back to DuckDB by sqlglot: the worked example's numbers."""
    import duckdb
    import sqlglot

    from rank_metrics._render import render

    con = duckdb.connect()
    con.register("lists", PREDICTIONS)
    con.register("train", TRAIN)
    con.register("features", pd.DataFrame({"item_id": list("abcd"), "x": [1.0, 0, 1, 1], "y": [0.0, 1, 1, 0]}))
    want = rank_metrics.beyond_accuracy(PREDICTIONS, TRAIN, 2, convention=convention, item_features=con.table("features").df())
    metrics = [{"metric": metric, "definition": convention} for metric in want.metric]
    for dialect in ("bigquery", "databricks", "redshift", "snowflake", "trino"):
        text = render("_beyond_accuracy_query", dialect, predictions="lists", train="train", ks=[2], metrics=metrics, by=[],
                      user="user_id", item="item_id", order="rank", descending=False, train_user="user_id",
                      train_item="item_id", item_features="features", features_item="item_id", feature_columns=["x", "y"],
                      similarity="features" if convention == "evidently" else "cooccurrence", item_is_text=True)
        sqlglot.parse(text, read=dialect, error_level=sqlglot.ErrorLevel.RAISE)
        got = con.execute(sqlglot.transpile(text, read=dialect, write="duckdb")[0]).df()
        assert got.metric.tolist() == want.metric.tolist(), dialect
        assert got.value.tolist() == pytest.approx(want.value.tolist(), rel=1e-12, nan_ok=True), dialect


def test_every_warehouse_dialect_transpiled_to_duckdb_compares_as_duckdb_does():
    """compare_beyond_accuracy's query as each warehouse's adapter renders it, parsed in its own
    dialect and transpiled back to DuckDB by sqlglot: DuckDB's own rows."""
    import duckdb
    import sqlglot

    from rank_metrics._render import render

    lists, train = _two_segments_of_three_models(6)
    con = duckdb.connect()
    con.register("lists", lists)
    con.register("train", train)
    metrics = [{"metric": metric, "definition": "evidently"} for metric in ("novelty", "arp", "diversity", "serendipity")]
    comparison = {"baseline": "b", "test": "t", "correction": "holm", "family": "metric_and_k", "alpha": 0.05}

    def rows(dialect):
        text = render("_beyond_accuracy_query", dialect, predictions="lists", train="train", ks=[2, 3], metrics=metrics,
                      by=["model", "segment"], user="user_id", item="item_id", order="rank", descending=False,
                      train_user="user_id", train_item="item_id", item_is_text=True, per_user=True,
                      comparison=dict(comparison, literal="'b'"))
        if dialect != "duckdb":
            sqlglot.parse(text, read=dialect, error_level=sqlglot.ErrorLevel.RAISE)
            text = sqlglot.transpile(text, read=dialect, write="duckdb")[0]
        return con.execute(text).df().sort_values(["model", "segment", "k", "metric"]).reset_index(drop=True)

    want = rows("duckdb")
    assert len(want) == 2 * 2 * 2 * 4 and want.p_value.notna().all()
    for dialect in ("bigquery", "databricks", "redshift", "snowflake", "trino"):
        got = rows(dialect)
        for column in want.columns:
            if want[column].dtype.kind == "f":
                assert got[column].tolist() == pytest.approx(want[column].tolist(), rel=1e-12, abs=1e-15), (dialect, column)
            else:
                assert got[column].tolist() == want[column].tolist(), (dialect, column)
