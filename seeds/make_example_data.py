"""Writes the bundled example data: a small synthetic recommender evaluation.

Three models recommend 12 articles to each of 2,000 customers from a 500-article catalogue with
popular articles (Zipf-like); about half of the customers bought something in the holdout week,
some of it from their own recommendations. Deterministic: re-running gives the same files.
    python seeds/make_example_data.py
"""

import csv
import random
from pathlib import Path

CUSTOMERS = 2000
ARTICLES = 500
LIST_LENGTH = 12
# how strongly each model's list leans toward what the customer will buy
MODELS = {"popularity": 0.0, "item_knn": 0.25, "two_tower": 0.45}


def main() -> None:
    here = Path(__file__).resolve().parent
    rng = random.Random(20261121)
    weights = [1 / (rank + 1) ** 1.1 for rank in range(ARTICLES)]
    articles = [f"A{number:04d}" for number in range(ARTICLES)]

    purchases = {}
    for customer in range(1, CUSTOMERS + 1):
        if rng.random() < 0.5:
            count = 1 + min(6, int(rng.expovariate(0.6)))
            purchases[customer] = sorted(set(rng.choices(articles, weights, k=count)))

    with open(here / "example_purchases.csv", "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["customer_id", "article_id"])
        for customer, bought in purchases.items():
            writer.writerows([customer, article] for article in bought)

    with open(here / "example_recommendations.csv", "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["model", "customer_id", "article_id", "rank"])
        for model, lean in MODELS.items():
            for customer in range(1, CUSTOMERS + 1):
                # the model's own guesses: popular articles, in an order of its own
                guesses = sorted(articles[:120], key=lambda a: -weights[articles.index(a)] * rng.random())
                chosen = [] if lean else articles[:LIST_LENGTH]
                for article in guesses if lean else []:
                    if len(chosen) >= LIST_LENGTH:
                        break
                    chosen.append(article)
                # and some of what the customer will buy, put in at random places
                for article in purchases.get(customer, []):
                    if rng.random() < lean and article not in chosen:
                        chosen.insert(rng.randrange(LIST_LENGTH), article)
                chosen = chosen[:LIST_LENGTH]
                writer.writerows([model, customer, article, rank]
                                 for rank, article in enumerate(chosen, start=1))


if __name__ == "__main__":
    main()
