export { Scrape, type Sample } from './scrape';
