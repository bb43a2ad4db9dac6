# kexp plot; run `gnuplot cost_vs_n_polynomial_d_5_degree_4.gp` here to redraw cost_vs_n_polynomial_d_5_degree_4.svg
set terminal svg size 1000,774 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'cost_vs_n_polynomial_d_5_degree_4.svg'
set title 'time against n: polynomial d=5 degree=4 on cubic'
set xlabel 'n (training points)'
set ylabel 'time: Gram or features + fit + predict (s)'
set grid
set format x '%g'
set format y '%g'
set bmargin 11
set label 100 'dual_gd: alpha=0, iterations=50, tolerance=0' at screen 0.01, screen 0.1886 left font ',12'
set label 101 'kernel_ridge: lambda=0.001' at screen 0.01, screen 0.1602 left font ',12'
set label 102 'primal_gd: alpha=0, iterations=50, tolerance=0' at screen 0.01, screen 0.1318 left font ',12'
set label 103 'primal_ridge: lambda=0.001' at screen 0.01, screen 0.1034 left font ',12'
set label 104 'Crossover primal_gd / dual_gd: not resolved: times below 1 ms at n = 160 or 400.' at screen 0.01, screen 0.0749 left font ',12'
set label 105 'Crossover primal_ridge / kernel_ridge: not resolved: times below 1 ms at n = 160 or 400.' at screen 0.01, screen 0.0465 left font ',12'
set label 106 'A primal solver and its dual counterpart share a colour: primal solid, dual dashed. Bars: fastest to slowest measurement.' at screen 0.01, screen 0.0181 left font ',12'
set key outside right top vertical
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('80' 80, '160' 160, '400' 400, '800' 800, '1600' 1600, '3200' 3200, '6400' 6400)
set logscale x
set logscale y
set arrow 1 from 126, graph 0 to 126, graph 1 nohead dashtype 3 lc rgb '#777777'
set label 1 'n = D = 126' at 126, graph 0.96 left offset 0.5,0 font ',12' textcolor rgb '#444444'
$line0 << EOD
80 9.04265e-05 6.2558e-05 0.000269048
160 0.0002098315 0.000191492 0.000291381
400 0.0012941085000000001 0.001242902 0.001487614
800 0.0055524135 0.005203172 0.006171375
1600 0.03052589025 0.029372299 0.03729043
3200 0.23175782299999997 0.222552138 0.257539972
6400 1.1671371395 1.0525141860000002 1.280918676
EOD
$line1 << EOD
80 4.6499e-05 3.1398e-05 0.000210929
160 0.000121545 0.00011588999999999999 0.000189989
400 0.0009633479999999999 0.0009045430000000001 0.001170656
800 0.006107694 0.0058877190000000005 0.006475191
1600 0.038074252 0.037372845 0.044965191
3200 0.263540889 0.261110957 0.283383386
6400 2.0486270490000003 2.020695212 2.077676367
EOD
$line2 << EOD
80 0.00022968450000000003 0.00018147299999999998 0.00037846500000000003
160 0.0002917015 0.000283455 0.000405335
400 0.0007055750000000001 0.0006442399999999999 0.0008462809999999999
800 0.0013234104999999999 0.001273058 0.0015198929999999998
1600 0.0032151224999999997 0.003144699 0.003426052
3200 0.006468367 0.006303877 0.0075646739999999995
6400 0.0132901115 0.012878465 0.028326812000000003
EOD
$line3 << EOD
80 0.0001096475 9.2302e-05 0.0006130999999999999
160 0.00014366150000000001 0.000139835 0.000270321
400 0.0002859455 0.000279137 0.000511568
800 0.0005858090000000001 0.0005263269999999999 0.0007468049999999999
1600 0.001062354 0.001001705 0.00223593
3200 0.0020633674999999997 0.0019330760000000002 0.003176821
6400 0.004339529999999999 0.004143479 0.019284124
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 2 lc rgb '#0072B2' title 'dual_gd (dual)', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 2 lc rgb '#D55E00' title 'kernel_ridge (dual)', \
     $line2 using 1:2:3:4 with yerrorlines lw 1.5 pt 8 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'primal_gd (primal)', \
     $line3 using 1:2:3:4 with yerrorlines lw 1.5 pt 10 ps 0.8 dashtype 1 lc rgb '#D55E00' title 'primal_ridge (primal)'
