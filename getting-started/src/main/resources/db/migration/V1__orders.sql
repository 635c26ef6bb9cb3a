CREATE TABLE orders (
    id       bigint PRIMARY KEY,
    customer text           NOT NULL,
    amount   numeric(12, 2) NOT NULL
);
