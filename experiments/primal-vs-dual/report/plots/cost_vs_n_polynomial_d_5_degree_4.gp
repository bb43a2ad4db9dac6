# kexp plot; run `gnuplot cost_vs_n_polynomial_d_5_degree_4.gp` here to redraw cost_vs_n_polynomial_d_5_degree_4.svg
set terminal svg size 1000,730 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'cost_vs_n_polynomial_d_5_degree_4.svg'
set title 'time against n: polynomial d=5 degree=4 on cubic'
set xlabel 'n (training points)'
set ylabel 'time: Gram or features + fit + predict (s)'
set grid
set format x '%g'
set format y '%g'
set bmargin 9
set label 100 'dual_gd: iterations = 50, tolerance = 0.' at screen 0.01, screen 0.1397 left font ',12'
set label 101 'primal_gd: iterations = 50, tolerance = 0.' at screen 0.01, screen 0.1096 left font ',12'
set label 102 'Crossover primal_gd / dual_gd: not resolved: times below 1 ms at n = 160 or 400.' at screen 0.01, screen 0.0795 left font ',12'
set label 103 'Crossover primal_ridge / kernel_ridge: not resolved: times below 1 ms at n = 80 or 160.' at screen 0.01, screen 0.0493 left font ',12'
set label 104 'A primal solver and its dual counterpart share a colour: primal solid, dual dashed. Bars: fastest to slowest measurement.' at screen 0.01, screen 0.0192 left font ',12'
set key outside right top vertical
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('80' 80, '160' 160, '400' 400, '800' 800, '1600' 1600, '3200' 3200, '6400' 6400)
set logscale x
set logscale y
set arrow 1 from 126, graph 0 to 126, graph 1 nohead dashtype 3 lc rgb '#777777'
set label 1 'n = D = 126' at 126, graph 0.960 left offset 0.5,0 font ',12' textcolor rgb '#222222'
$line0 << EOD
80 7.4418e-05 6.7696e-05 0.000312414
160 0.0002404715 0.00020995500000000003 0.004595561000000001
400 0.0011451935 0.0010041170000000001 0.006187725
800 0.018004271 0.016600989 0.031332039
1600 0.08171619375 0.07024794999999999 0.105597735
3200 0.39413801925 0.356935322 0.43525082299999995
6400 2.6128831565 2.386253353 2.838961527
EOD
$line1 << EOD
80 3.6155499999999996e-05 3.4504999999999996e-05 0.000109045
160 0.0001327915 0.000128502 0.00037822999999999996
400 0.0010107585 0.000903039 0.006383052
800 0.007268437500000001 0.0050771259999999995 0.020617192
1600 0.050891031999999996 0.044067307 0.071154779
3200 0.35518059875 0.313558899 0.400541058
6400 2.2896414080000005 2.087975741 2.4890722600000004
EOD
$line2 << EOD
80 0.000157647 0.000141081 0.000281192
160 0.0003229795 0.000290654 0.000650138
400 0.000706873 0.000675377 0.005061479
800 0.001427682 0.001300416 0.00595661
1600 0.0035232555 0.0030502150000000002 0.012454495999999999
3200 0.027718431 0.017244661999999997 0.03842871
6400 0.055878800500000006 0.052689136 0.074912594
EOD
$line3 << EOD
80 8.9583e-05 8.0653e-05 0.000649637
160 0.0001191195 0.00011183799999999998 0.000552901
400 0.0002363185 0.000218048 0.0007191330000000001
800 0.0004122515 0.000383852 0.001313415
1600 0.0008645585 0.000767973 0.009743327000000001
3200 0.001697544 0.0016041949999999999 0.007385944
6400 0.003967862999999999 0.0032854940000000003 0.024436516000000002
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 2 lc rgb '#0072B2' title 'dual_gd (dual)', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 2 lc rgb '#D55E00' title 'kernel_ridge (dual)', \
     $line2 using 1:2:3:4 with yerrorlines lw 1.5 pt 8 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'primal_gd (primal)', \
     $line3 using 1:2:3:4 with yerrorlines lw 1.5 pt 10 ps 0.8 dashtype 1 lc rgb '#D55E00' title 'primal_ridge (primal)'
