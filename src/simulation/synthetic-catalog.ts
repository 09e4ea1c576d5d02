/**
 * The data behind `generateContexts()`: marketplace categories, the products in them, the words their
 * titles and descriptions are built from, and how likely each condition is. Plain data, no logic, so a
 * reader can judge the realism of the synthetic listings in one place.
 *
 * Prices are log-normal per product (a median and a log-scale spread) because listing prices are
 * right-skewed: many cheap items, a long tail of expensive ones. The medians are our own rough figures
 * for typical second-hand marketplace listings, not measurements.
 */

/** Item conditions as a marketplace lists them, best first. */
export const CONDITIONS = [
  'New',
  'New – Open Box',
  'Used – Like New',
  'Used – Very Good',
  'Used – Good',
  'Used – Acceptable',
  'For parts or not working',
] as const;
export type Condition = (typeof CONDITIONS)[number];

/** How a condition moves the price away from the product's median (a used item sells for less). */
export const CONDITION_PRICE_FACTOR: Readonly<Record<Condition, number>> = {
  New: 1,
  'New – Open Box': 0.85,
  'Used – Like New': 0.75,
  'Used – Very Good': 0.65,
  'Used – Good': 0.55,
  'Used – Acceptable': 0.45,
  'For parts or not working': 0.25,
};

/** A condition mixture, as weights over `CONDITIONS`. */
export type ConditionWeights = Readonly<Partial<Record<Condition, number>>>;

export interface ProductSpec {
  /** What the item is, as it appears in a title: `Wireless Headphones`. */
  noun: string;
  /** Median list price of a new one, in USD. */
  medianPrice: number;
  /** Log-scale spread of the price around the median. */
  sigma: number;
  /** Title endings that fit this product better than the category's (shoe sizes for shoes). */
  variants?: readonly string[];
  /** Brands that make this product, where the category's list would give nonsense (a Nintendo lens). */
  brands?: readonly string[];
}

export interface CategorySpec {
  /** Category name as a marketplace shows it. */
  name: string;
  /** Relative share of listings in this category. */
  weight: number;
  brands: readonly string[];
  products: readonly ProductSpec[];
  /** Words a seller puts in front of the noun: `Vintage`, `Wireless`. */
  adjectives: readonly string[];
  /** Colour, size, edition: the last words of a title. */
  variants: readonly string[];
  /** Whether titles in this category carry a model number (gadgets and parts do, jeans and books don't). */
  modelNumbers: boolean;
  conditions: ConditionWeights;
  /** One sentence each about the item; two or three are picked per description. */
  details: readonly string[];
}

const MOSTLY_USED: ConditionWeights = {
  New: 0.15,
  'New – Open Box': 0.05,
  'Used – Like New': 0.2,
  'Used – Very Good': 0.2,
  'Used – Good': 0.25,
  'Used – Acceptable': 0.1,
  'For parts or not working': 0.05,
};

const MOSTLY_NEW: ConditionWeights = {
  New: 0.55,
  'New – Open Box': 0.1,
  'Used – Like New': 0.15,
  'Used – Very Good': 0.08,
  'Used – Good': 0.08,
  'Used – Acceptable': 0.04,
};

export const CATEGORIES: readonly CategorySpec[] = [
  {
    name: 'Electronics',
    modelNumbers: true,
    weight: 0.2,
    brands: ['Sony', 'Samsung', 'Bose', 'Canon', 'Nikon', 'Apple', 'JBL', 'Garmin', 'Logitech', 'Nintendo'],
    products: [
      { noun: 'Wireless Headphones', brands: ['Sony', 'Bose', 'JBL', 'Apple'], medianPrice: 120, sigma: 0.6 },
      { noun: 'Bluetooth Speaker', brands: ['JBL', 'Bose', 'Sony'], medianPrice: 70, sigma: 0.6 },
      { noun: 'Digital Camera', brands: ['Canon', 'Nikon', 'Sony'], medianPrice: 350, sigma: 0.7 },
      { noun: 'Tablet', brands: ['Apple', 'Samsung'], medianPrice: 300, sigma: 0.6 },
      { noun: 'Smartwatch', brands: ['Apple', 'Garmin', 'Samsung'], medianPrice: 180, sigma: 0.6 },
      {
        noun: 'Game Console',
        brands: ['Nintendo', 'Sony'],
        medianPrice: 280,
        sigma: 0.5,
        variants: ['Bundle', '1TB', 'With 2 Controllers'],
      },
      {
        noun: 'Camera Lens',
        brands: ['Canon', 'Nikon', 'Sony'],
        medianPrice: 450,
        sigma: 0.8,
        variants: ['50mm f/1.8', '24-70mm', '70-200mm', 'EF Mount'],
      },
      { noun: 'Wireless Mouse', brands: ['Logitech', 'Apple'], medianPrice: 35, sigma: 0.5 },
      {
        noun: 'Laptop',
        brands: ['Apple', 'Samsung'],
        medianPrice: 650,
        sigma: 0.6,
        variants: ['16GB RAM', '512GB SSD', '14"', 'Silver'],
      },
    ],
    adjectives: ['Wireless', 'Portable', 'Compact', 'Refurbished', 'Genuine', 'Noise Cancelling', 'HD'],
    variants: ['Black', 'Silver', 'White', 'Space Gray', 'Blue', '64GB', '128GB', 'Bundle'],
    conditions: MOSTLY_USED,
    details: [
      'Powers on and works as it should.',
      'Comes with the original charger and cable.',
      'Light scratches on the casing from normal use; the screen is clean.',
      'Battery holds a good charge.',
      'Factory reset and ready for a new owner.',
      'Original box and manuals included.',
      'Tested before listing; no known faults.',
    ],
  },
  {
    name: 'Collectibles',
    modelNumbers: false,
    weight: 0.14,
    brands: ['Funko', 'Hot Wheels', 'Pokémon', 'Topps', 'Hummel', 'Lladró', 'Department 56', 'Franklin Mint'],
    products: [
      { noun: 'Trading Card', medianPrice: 25, sigma: 1.1 },
      { noun: 'Figurine', medianPrice: 45, sigma: 0.8 },
      { noun: 'Die-Cast Car', medianPrice: 18, sigma: 0.8 },
      { noun: 'Vinyl Figure', medianPrice: 30, sigma: 0.7 },
      { noun: 'Commemorative Coin', medianPrice: 40, sigma: 0.9 },
      { noun: 'Signed Photo', medianPrice: 90, sigma: 1 },
      { noun: 'Porcelain Plate', medianPrice: 28, sigma: 0.7 },
    ],
    adjectives: ['Vintage', 'Rare', 'Limited Edition', 'Retired', 'Collector', 'First Edition', 'Graded'],
    variants: ['1987', '1995', '2003', 'Series 2', 'Holo', 'Mint in Box', 'Signed', '#112'],
    conditions: MOSTLY_USED,
    details: [
      'From a smoke-free collection.',
      'Displayed in a cabinet, never handled much.',
      'Small mark on the base, see photos.',
      'Original packaging shows some shelf wear.',
      'Certificate of authenticity included.',
      'Hard to find in this condition.',
      'Will be packed carefully with plenty of padding.',
    ],
  },
  {
    name: 'Clothing, Shoes & Accessories',
    modelNumbers: false,
    weight: 0.16,
    brands: [
      "Levi's",
      'Nike',
      'Adidas',
      'Patagonia',
      'Coach',
      'Ralph Lauren',
      'The North Face',
      'Dr. Martens',
    ],
    products: [
      {
        noun: 'Denim Jeans',
        brands: ["Levi's", 'Ralph Lauren'],
        medianPrice: 35,
        sigma: 0.5,
        variants: ['W30 L32', 'W32 L32', 'W34 L30', 'W36 L34'],
      },
      {
        noun: 'Running Shoes',
        brands: ['Nike', 'Adidas'],
        medianPrice: 70,
        sigma: 0.5,
        variants: ['US 8', 'US 9', 'US 10.5', 'US 11', 'White'],
      },
      {
        noun: 'Leather Handbag',
        brands: ['Coach', 'Ralph Lauren'],
        medianPrice: 120,
        sigma: 0.7,
        variants: ['Black', 'Tan', 'Burgundy', 'Crossbody'],
      },
      { noun: 'Fleece Jacket', brands: ['Patagonia', 'The North Face'], medianPrice: 60, sigma: 0.5 },
      { noun: 'Wool Sweater', brands: ['Ralph Lauren', 'Patagonia'], medianPrice: 40, sigma: 0.5 },
      {
        noun: 'Leather Boots',
        brands: ['Dr. Martens', 'Ralph Lauren'],
        medianPrice: 95,
        sigma: 0.5,
        variants: ['US 7', 'US 9', 'US 10', 'UK 8', 'Brown'],
      },
      {
        noun: 'Sunglasses',
        brands: ['Ralph Lauren', 'Coach', 'Nike'],
        medianPrice: 55,
        sigma: 0.7,
        variants: ['Polarized', 'Tortoise', 'Black Frame'],
      },
    ],
    adjectives: ["Men's", "Women's", 'Classic', 'Slim Fit', 'Waterproof', 'Lightweight', 'Vintage'],
    variants: ['Size S', 'Size M', 'Size L', 'Size XL', 'Navy', 'Black'],
    conditions: {
      New: 0.3,
      'New – Open Box': 0.1,
      'Used – Like New': 0.2,
      'Used – Very Good': 0.18,
      'Used – Good': 0.17,
      'Used – Acceptable': 0.05,
    },
    details: [
      'Worn a handful of times.',
      'No stains, holes or odours.',
      'Measurements on request.',
      'Tags still attached.',
      'Slight fading consistent with age.',
      'True to size.',
      'Stored folded in a closet.',
    ],
  },
  {
    name: 'Home & Garden',
    modelNumbers: true,
    weight: 0.14,
    brands: ['KitchenAid', 'Le Creuset', 'Dyson', 'Weber', 'Cuisinart', 'Pyrex', 'Ninja', 'DeWalt'],
    products: [
      { noun: 'Stand Mixer', brands: ['KitchenAid', 'Cuisinart'], medianPrice: 260, sigma: 0.4 },
      { noun: 'Dutch Oven', brands: ['Le Creuset', 'Cuisinart'], medianPrice: 160, sigma: 0.5 },
      { noun: 'Cordless Vacuum', brands: ['Dyson'], medianPrice: 300, sigma: 0.5 },
      { noun: 'Gas Grill', brands: ['Weber'], medianPrice: 420, sigma: 0.5 },
      { noun: 'Mixing Bowl Set', brands: ['Pyrex', 'KitchenAid', 'Cuisinart'], medianPrice: 30, sigma: 0.5 },
      { noun: 'Cordless Drill', brands: ['DeWalt'], medianPrice: 110, sigma: 0.5 },
      { noun: 'Table Lamp', medianPrice: 45, sigma: 0.6 },
    ],
    adjectives: [
      'Heavy Duty',
      'Enameled',
      'Cordless',
      'Stainless Steel',
      'Mid-Century',
      'Large',
      'Cast Iron',
    ],
    variants: ['Red', 'Cream', 'Graphite', '5.5 qt', '20V', 'Set of 4', 'Oak'],
    conditions: MOSTLY_NEW,
    details: [
      'Used a few times, cleaned and ready to go.',
      'All attachments included.',
      'Minor cosmetic wear, fully functional.',
      'Local pickup welcome; shipping is also available.',
      'Selling because we downsized.',
      'Still under warranty.',
      'Comes from a pet-free home.',
    ],
  },
  {
    name: 'Sporting Goods',
    modelNumbers: true,
    weight: 0.1,
    brands: ['Callaway', 'Wilson', 'Shimano', 'Trek', 'Bowflex', 'Yeti', 'Coleman', 'Rawlings'],
    products: [
      { noun: 'Golf Driver', brands: ['Callaway'], medianPrice: 180, sigma: 0.6 },
      { noun: 'Tennis Racquet', brands: ['Wilson'], medianPrice: 90, sigma: 0.5 },
      { noun: 'Fishing Reel', brands: ['Shimano'], medianPrice: 80, sigma: 0.7 },
      { noun: 'Mountain Bike', brands: ['Trek'], medianPrice: 650, sigma: 0.6 },
      { noun: 'Adjustable Dumbbells', brands: ['Bowflex'], medianPrice: 250, sigma: 0.5 },
      { noun: 'Insulated Cooler', brands: ['Yeti', 'Coleman'], medianPrice: 150, sigma: 0.5 },
      { noun: 'Baseball Glove', brands: ['Rawlings', 'Wilson'], medianPrice: 60, sigma: 0.6 },
    ],
    adjectives: ['Pro', 'Lightweight', 'Carbon', 'Adjustable', 'Tournament', 'Youth', 'Left-Handed'],
    variants: ['Regular Flex', 'Stiff Flex', 'Size M', '29"', '45 qt', '12.5"', 'Grip 3'],
    conditions: MOSTLY_USED,
    details: [
      'Used for one season.',
      'Grip shows some wear; otherwise in great shape.',
      'Serviced recently.',
      'No cracks or dents.',
      'Ships in a padded box.',
      'Includes the original cover.',
      'Selling because I upgraded.',
    ],
  },
  {
    name: 'Toys & Hobbies',
    modelNumbers: true,
    weight: 0.09,
    brands: ['LEGO', 'Mattel', 'Hasbro', 'Playmobil', 'Bandai', 'Traxxas', 'Hornby', 'Ravensburger'],
    products: [
      { noun: 'Building Set', medianPrice: 80, sigma: 0.8 },
      { noun: 'Action Figure', medianPrice: 25, sigma: 0.7 },
      { noun: 'RC Car', medianPrice: 200, sigma: 0.7 },
      { noun: 'Model Train Set', medianPrice: 150, sigma: 0.8 },
      { noun: 'Jigsaw Puzzle', medianPrice: 20, sigma: 0.5 },
      { noun: 'Board Game', medianPrice: 35, sigma: 0.5 },
      { noun: 'Doll', medianPrice: 30, sigma: 0.8 },
    ],
    adjectives: ['Complete', 'Sealed', 'Retired', 'Deluxe', 'Classic', 'Collector', 'Battery-Powered'],
    variants: ['1000 Pieces', 'Set 10242', 'With Box', 'OO Gauge', '1:10 Scale', 'Wave 3', 'Ages 8+'],
    conditions: MOSTLY_NEW,
    details: [
      'All pieces checked and accounted for.',
      'Instructions included.',
      'Box has some shelf wear.',
      'Played with gently; no missing parts.',
      'Never opened.',
      'Batteries not included.',
      'Great gift for a collector.',
    ],
  },
  {
    name: 'Books, Movies & Music',
    modelNumbers: false,
    weight: 0.1,
    brands: ['Penguin', 'Folio Society', 'Criterion', 'Blue Note', 'Marvel', 'DC Comics', 'Taschen'],
    products: [
      { noun: 'Hardcover Book', medianPrice: 18, sigma: 0.7 },
      { noun: 'Vinyl LP', medianPrice: 28, sigma: 0.8 },
      { noun: 'Blu-ray Box Set', medianPrice: 35, sigma: 0.6 },
      { noun: 'Comic Book', medianPrice: 22, sigma: 1.1 },
      { noun: 'Art Book', medianPrice: 45, sigma: 0.6 },
      { noun: 'Textbook', medianPrice: 60, sigma: 0.6 },
    ],
    adjectives: ['First Printing', 'Signed', 'Illustrated', 'Original Pressing', 'Remastered', 'Rare'],
    variants: ['1st Edition', '180g', 'Box Set', 'Issue #1', 'Deluxe Edition', '3rd Edition'],
    conditions: {
      New: 0.2,
      'Used – Like New': 0.25,
      'Used – Very Good': 0.25,
      'Used – Good': 0.2,
      'Used – Acceptable': 0.1,
    },
    details: [
      'Spine is tight; pages are clean.',
      'Dust jacket has a small tear.',
      'Plays through without skips.',
      'Stored in a sleeve since purchase.',
      'No highlighting or notes.',
      'Corners slightly bumped.',
      'Ships in a sturdy mailer.',
    ],
  },
  {
    name: 'eBay Motors: Parts & Accessories',
    modelNumbers: true,
    weight: 0.07,
    brands: ['Bosch', 'ACDelco', 'Motorcraft', 'Denso', 'Brembo', 'K&N', 'Mopar', 'Bilstein'],
    products: [
      { noun: 'Brake Rotor Set', medianPrice: 120, sigma: 0.5 },
      { noun: 'Alternator', medianPrice: 160, sigma: 0.5 },
      { noun: 'Headlight Assembly', medianPrice: 140, sigma: 0.6 },
      { noun: 'Air Intake Kit', medianPrice: 250, sigma: 0.5 },
      { noun: 'Shock Absorber Pair', medianPrice: 190, sigma: 0.5 },
      { noun: 'Spark Plug Set', medianPrice: 30, sigma: 0.5 },
      { noun: 'Alloy Wheel', medianPrice: 220, sigma: 0.7 },
    ],
    adjectives: ['OEM', 'Performance', 'Front', 'Rear', 'Driver Side', 'Remanufactured', 'Direct Fit'],
    variants: ['2012-2018', 'Fits F-150', 'Fits Civic', 'Fits Silverado', '17"', 'Pair', 'Left'],
    conditions: {
      New: 0.45,
      'New – Open Box': 0.1,
      'Used – Very Good': 0.15,
      'Used – Good': 0.15,
      'Used – Acceptable': 0.05,
      'For parts or not working': 0.1,
    },
    details: [
      'Removed from a running vehicle.',
      'Please check the part number fits your vehicle.',
      'Mounting hardware included.',
      'Some surface rust, does not affect function.',
      'Bench tested.',
      'Ships with tracking.',
      'No returns on electrical parts once installed.',
    ],
  },
];

/** Openings and closings for descriptions, so two listings of the same product still read differently. */
export const DESCRIPTION_OPENINGS: readonly string[] = [
  'Up for sale is a {title}.',
  'Selling my {title}.',
  'You are looking at a {title}.',
  'For sale: {title}.',
  'Offered here: {title}.',
];

export const DESCRIPTION_CLOSINGS: readonly string[] = [
  'Ships within one business day.',
  'Please ask any questions before buying.',
  'Reasonable offers considered.',
  'Thanks for looking!',
  'Combined shipping available.',
  '',
];
