# kexp plot; run `gnuplot cost_vs_n_polynomial_d_5_degree_4.gp` here to redraw cost_vs_n_polynomial_d_5_degree_4.svg
set terminal svg size 860,520 dynamic noenhanced font 'sans,11'
set output 'cost_vs_n_polynomial_d_5_degree_4.svg'
set title 'time against n: polynomial d=5 degree=4 (cubic)'
set xlabel 'n (training points)'
set ylabel 'time: Gram or features + fit + predict (s)'
set key below
set grid
set format x '%g'
set format y '%g'
set logscale x
set logscale y
set arrow 1 from 220.8903894867925, graph 0 to 220.8903894867925, graph 1 nohead dashtype 2 lc rgb '#888888'
set label 1 'crossover n ≈ 221' at 220.8903894867925, graph 0.95 left offset 0.5,0 textcolor rgb '#555555'
set arrow 2 from 178.7576464504433, graph 0 to 178.7576464504433, graph 1 nohead dashtype 2 lc rgb '#888888'
set label 2 'crossover n ≈ 179' at 178.7576464504433, graph 0.8899999999999999 left offset 0.5,0 textcolor rgb '#555555'
$line0 << EOD
80 9.04265e-05
160 0.0002098315
400 0.0012941085000000001
800 0.0055524135
1600 0.03052589025
3200 0.23175782299999997
6400 1.1671371395
EOD
$line1 << EOD
80 4.6499e-05
160 0.000121545
400 0.0009633479999999999
800 0.006107694
1600 0.038074252
3200 0.263540889
6400 2.0486270490000003
EOD
$line2 << EOD
80 0.00022968450000000003
160 0.0002917015
400 0.0007055750000000001
800 0.0013234104999999999
1600 0.0032151224999999997
3200 0.006468367
6400 0.0132901115
EOD
$line3 << EOD
80 0.0001096475
160 0.00014366150000000001
400 0.0002859455
800 0.0005858090000000001
1600 0.001062354
3200 0.0020633674999999997
6400 0.004339529999999999
EOD
plot $line0 using 1:2 with linespoints title 'dual dual_gd(alpha=0, iterations=50, tolerance=0)', \
     $line1 using 1:2 with linespoints title 'dual kernel_ridge(lambda=0.001)', \
     $line2 using 1:2 with linespoints title 'primal primal_gd(alpha=0, iterations=50, tolerance=0)', \
     $line3 using 1:2 with linespoints title 'primal primal_ridge(lambda=0.001)'
